import { defineConfig } from "@playwright/test";
import { E2E_PORT, E2E_SERVER_URL } from "./e2e/env";

// Browser tests on Debian's Chromium (Playwright cannot download its own here), against the built
// console on a real PostgreSQL database that e2e/server.ts recreates and seeds for every run.
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: "tsx --conditions=react-server e2e/server.ts",
    url: `http://127.0.0.1:${E2E_PORT}/sign-in`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { E2E_SERVER_URL, PORT: String(E2E_PORT), LOG_LEVEL: "warn" },
  },
});

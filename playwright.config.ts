import { defineConfig } from "@playwright/test";
import { E2E_PORT, E2E_SERVER_URL } from "./e2e/env";

// The screenshots of the main pages (e2e/screenshots.spec.ts) are made on request only, never in
// the default run: `npx playwright test --project=screenshots`. A project is defined only when it is
// asked for by name, since a plain run runs every defined project; the answer is handed to the
// worker processes (which load this file again without the command line) through the environment.
const args = process.argv.slice(2);
if (args.some((a, i) => a === "--project=screenshots" || (a === "--project" && args[i + 1] === "screenshots"))) process.env.ORDEROPS_SCREENSHOTS = "1";
const screenshots = process.env.ORDEROPS_SCREENSHOTS === "1";

// Browser tests on Debian's Chromium (Playwright cannot download its own here), against the built
// console as production runs it: two app nodes behind a load balancer (HAProxy, round robin) on
// E2E_PORT, sharing a real PostgreSQL database that e2e/server.ts recreates and seeds for every run.
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  projects: [
    { name: "console", testIgnore: /screenshots\.spec\.ts/ },
    ...(screenshots ? [{ name: "screenshots", testMatch: /screenshots\.spec\.ts/ }] : []),
  ],
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
    // The balancer, which the harness starts once both nodes answer.
    url: `http://127.0.0.1:${E2E_PORT}/sign-in`,
    // Two first starts, each with its build, one after the other.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // The nodes run in process groups of their own (a test kills one whole, as a machine dies), which
    // Playwright's default SIGKILL to the harness's group would not reach: the harness stops them.
    gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
    // Each node's settings (its port, build directory, secret, trusted proxies, web processes) are
    // the harness's: e2e/server.ts.
    env: { E2E_SERVER_URL, E2E_PORT: String(E2E_PORT) },
  },
});

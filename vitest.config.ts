import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React's server build; tests and the CLI are server code too.
      "server-only": path.resolve(import.meta.dirname, "lib/test/empty-module.ts"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "bench/**/*.test.ts"],
    // bench/out holds the checkout of an earlier commit that bench/http-pay.ts measures against.
    exclude: ["**/node_modules/**", "bench/out/**"],
    globalSetup: ["lib/test/global-setup.ts"],
    setupFiles: ["lib/test/setup.ts"],
    // One worker per core, not Vitest's default of one fewer: most files wait on PostgreSQL, so on
    // a 2-core machine a second worker takes the suite from 373 s to 270 s (three: 299 s).
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: "test" },
  },
});

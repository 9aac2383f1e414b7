// Generates the Prisma client offline. The CLI wants a schema engine binary even though
// `generate` never runs it, and cannot download one here; any executable satisfies the check.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
execFileSync(process.execPath, [cli, "generate"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});

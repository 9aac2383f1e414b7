// `npm start`, `npm run dev`, `npm run worker`, `npm run cli`: resolves the secrets (scripts/build.mjs),
// builds what the target needs when it is not current, then runs its compiled entry point in this
// process. In production nothing here compiles anything: the build is current and this only checks.
//
//   node scripts/run.mjs start [--dev]   the console (web processes, worker, simulator on the demo)
//   node scripts/run.mjs worker          one background worker
//   node scripts/run.mjs cli -- <args>   the operator's command line
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ENTRIES_DIR, ensureBuilt, resolveSecrets } from "./build.mjs";

const [target = "", ...rest] = process.argv.slice(2);
const entries = { start: "start", worker: "worker", cli: "cli" };
if (!(target in entries)) {
  process.stderr.write(`usage: node scripts/run.mjs start|worker|cli [args]\n`);
  process.exit(2);
}

try {
  // Only the console signs sessions and serves server actions: the worker and the CLI need no secret.
  const keys = target === "start" ? await resolveSecrets() : null;
  Object.assign(process.env, keys);
  // The console needs Next's build, except under `npm run dev`, where Next compiles as it serves.
  const whole = target === "start" && !rest.includes("--dev");
  await ensureBuilt(whole ? "console" : "entries", { actionsKey: keys?.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, log: (line) => process.stdout.write(`${line}\n`) });
} catch (error) {
  // A missing secret or a failed build: one clear line (the build printed its own errors above).
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

// The entry reads its arguments from process.argv, as it would if Node had started it directly.
process.argv = [process.argv[0], path.resolve(ENTRIES_DIR, `${entries[target]}.mjs`), ...rest.filter((arg, i) => !(i === 0 && arg === "--"))];
await import(pathToFileURL(process.argv[1]).href);

// The code before a change, measured in the same run as the code after it (these machines are too
// noisy to compare figures from two runs): a git worktree of `ref` under bench/out/, sharing this
// checkout's installed packages, started with its own `npm start` beside ours (bench/lib/server.ts).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { OUT_DIR } from "./runner";

const run = promisify(execFile);

/** The commit before issue 24 (the compiled runtime): what bench/http-pay.ts compares against. */
export const DEFAULT_BASELINE = process.env.BENCH_BASELINE ?? "e7863c4";

/** A checkout of `ref`, ready for `npm start`: its own build directory, this checkout's node_modules. */
export async function baselineCheckout(ref: string, log: (message: string) => void): Promise<string> {
  const dir = path.join(OUT_DIR, `baseline-${ref}`);
  if (!existsSync(path.join(dir, "package.json"))) {
    log(`checking out ${ref} into ${path.relative(process.cwd(), dir)}`);
    await run("git", ["worktree", "add", "--force", "--detach", dir, ref]);
  }
  if (!existsSync(path.join(dir, "node_modules"))) {
    // Hard links: a copy in a second, and Next's bundler finds the packages inside its own root.
    await run("cp", ["-al", path.resolve("node_modules"), path.join(dir, "node_modules")]);
  }
  if (!existsSync(path.join(dir, "lib", "generated"))) await run(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: dir });
  return dir;
}

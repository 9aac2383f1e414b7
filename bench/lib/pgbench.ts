import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PgbenchRun {
  readonly transactions: number;
  readonly failed: number;
  /** tps as pgbench prints it (without initial connection time). */
  readonly tps: number;
  readonly latencyMs: number;
  readonly output: string;
}

async function findPgbench(): Promise<string | null> {
  for (const candidate of ["pgbench", "/usr/lib/postgresql/15/bin/pgbench"]) {
    try {
      await run(candidate, ["--version"]);
      return candidate;
    } catch {
      // try the next one
    }
  }
  return null;
}

/**
 * pgbench comes with Debian's PostgreSQL packages (postgresql-contrib on older releases). When it
 * is missing and this runs as root (the project's machines), it is installed once with apt-get.
 */
export async function pgbenchPath(): Promise<string> {
  const found = await findPgbench();
  if (found) return found;
  if (process.getuid?.() === 0) {
    process.stderr.write("pgbench not found: apt-get install -y postgresql-contrib\n");
    await run("apt-get", ["install", "-y", "postgresql-contrib"], { maxBuffer: 64 * 1024 * 1024 }).catch(async () => {
      await run("apt-get", ["update"], { maxBuffer: 64 * 1024 * 1024 });
      await run("apt-get", ["install", "-y", "postgresql-contrib"], { maxBuffer: 64 * 1024 * 1024 });
    });
    const installed = await findPgbench();
    if (installed) return installed;
  }
  throw new Error("pgbench not found: apt-get install -y postgresql-contrib");
}

export async function runPgbench(options: {
  readonly databaseUrl: string;
  readonly script: string;
  readonly clients: number;
  readonly threads: number;
  readonly seconds: number;
  readonly variables: Readonly<Record<string, string | number>>;
  /** extended (default): parse, bind, execute each time, as node-postgres sends unnamed statements. */
  readonly mode?: "extended" | "prepared";
  /** Session settings for pgbench's connections (PGOPTIONS), e.g. "-c synchronous_commit=off". */
  readonly sessionOptions?: string;
}): Promise<PgbenchRun> {
  const url = new URL(options.databaseUrl);
  const args = [
    "-n",
    "-h", url.hostname,
    "-p", url.port || "5432",
    "-U", decodeURIComponent(url.username || "postgres"),
    "-M", options.mode ?? "extended",
    "-c", String(options.clients),
    "-j", String(options.threads),
    "-T", String(options.seconds),
    ...Object.entries(options.variables).flatMap(([k, v]) => ["-D", `${k}=${v}`]),
    "-f", options.script,
    url.pathname.slice(1),
  ];
  const env = { ...process.env, ...(options.sessionOptions ? { PGOPTIONS: options.sessionOptions } : {}) };
  const { stdout, stderr } = await run(await pgbenchPath(), args, { maxBuffer: 16 * 1024 * 1024, env });
  const output = `${stdout}\n${stderr}`;
  const number = (pattern: RegExp): number => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`pgbench output has no ${pattern}:\n${output.slice(-2000)}`);
    return Number(match[1]);
  };
  return {
    transactions: number(/number of transactions actually processed: (\d+)/),
    failed: /number of failed transactions: (\d+)/.test(output) ? number(/number of failed transactions: (\d+)/) : 0,
    tps: number(/tps = ([\d.]+) \(without initial connection time\)/),
    latencyMs: number(/latency average = ([\d.]+) ms/),
    output,
  };
}

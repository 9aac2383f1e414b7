import { execFileSync } from "node:child_process";
import os from "node:os";
import { withAdmin } from "./db";
import type { MachineInfo } from "./results";

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

export async function machineInfo(): Promise<Omit<MachineInfo, "startedAt">> {
  const { postgres, settings } = await withAdmin(async (admin) => {
    const version = (await admin.query<{ v: string }>(`SELECT version() AS v`)).rows[0]!.v;
    const { rows } = await admin.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings
       WHERE name IN ('shared_buffers', 'max_connections', 'synchronous_commit', 'fsync', 'work_mem', 'effective_cache_size', 'random_page_cost', 'max_wal_size')
       ORDER BY name`,
    );
    const show = rows.map((r) => `${r.name}=${r.unit === "8kB" ? `${(Number(r.setting) * 8) / 1024}MB` : r.unit === "kB" ? `${Number(r.setting) / 1024}MB` : `${r.setting}${r.unit ?? ""}`}`);
    return { postgres: version.split(" on ")[0]!, settings: show.join(", ") };
  });
  const commit = git(["rev-parse", "--short", "HEAD"]);
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres,
    postgresSettings: settings,
    loadAverage: os.loadavg().map((l) => l.toFixed(2)).join(", "),
    date: new Date().toISOString().replace("T", " ").slice(0, 19) + " UTC",
    commit: commit ? `${commit}${dirty ? " (with uncommitted changes in the work tree)" : ""}` : "unknown",
    hostname: os.hostname(),
  };
}

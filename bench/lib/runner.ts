// Runs benchmarks and writes bench/RESULTS.md. Used by bench/run.ts (all or a subset) and by each
// benchmark file run on its own (`npx tsx --conditions=react-server bench/hot-order.ts`).
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { machineInfo } from "./machine";
import { renderResults, type BenchResult, type MachineInfo } from "./results";

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Ignored by git: logs, pgbench scripts and the last result of each benchmark. */
export const OUT_DIR = path.join(BENCH_DIR, "out");
const RESULTS_DIR = path.join(OUT_DIR, "results");

export interface BenchArgs {
  /** Orders in the large-data database (default 1,000,000). */
  readonly orders: number;
  /** Drop the large-data database at the end instead of keeping it for the next run. */
  readonly dropLarge: boolean;
  /** Seed the large-data database again even if one that matches exists. */
  readonly reseed: boolean;
  /** Scale for durations (0.5 = half as long); for quick trial runs. */
  readonly quick: boolean;
  /** Run nothing: write RESULTS.md again from the last results (after editing ANALYSIS.md). */
  readonly report: boolean;
}

export interface BenchContext {
  readonly args: BenchArgs;
  readonly log: (message: string) => void;
}

export interface Bench {
  /** The name used on the command line. */
  readonly name: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<Omit<BenchResult, "name" | "title" | "startedAt" | "elapsedMs">>;
}

export const USAGE = `usage: npm run bench -- [name ...] [--orders N] [--reseed] [--drop-large] [--quick]
  names: transit, hot-order, large-data, console-load, timeout-close, outbox-relay, http-pay, console-browser, order-presence (default: all)
  --orders N     orders in the large-data database (default 1000000; e.g. 100000 for a quick run)
  --reseed       seed the large-data database again even if a matching one exists
  --drop-large   drop the large-data database at the end (default: keep it for the next run)
  --quick        shorter measurement windows (figures are less stable)
  --report       run nothing; write RESULTS.md again from the last results and bench/ANALYSIS.md`;

export function parseArgs(argv: readonly string[]): { names: string[]; args: BenchArgs } {
  const names: string[] = [];
  let orders = 1_000_000;
  let dropLarge = false;
  let reseed = false;
  let quick = false;
  let report = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--orders") {
      const value = Number(String(argv[++i]).replaceAll("_", "").replaceAll(",", ""));
      if (!Number.isInteger(value) || value < 1000) throw new Error(`--orders needs a whole number of at least 1000`);
      orders = value;
    } else if (arg.startsWith("--orders=")) {
      return parseArgs([...argv.slice(0, i), "--orders", arg.slice("--orders=".length), ...argv.slice(i + 1)]);
    } else if (arg === "--drop-large") dropLarge = true;
    else if (arg === "--reseed") reseed = true;
    else if (arg === "--quick") quick = true;
    else if (arg === "--report") report = true;
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else names.push(arg);
  }
  return { names, args: { orders, dropLarge, reseed, quick, report } };
}

function loadAverage(): string {
  return os.loadavg()[0]!.toFixed(1);
}

/** True when `moduleUrl` is the script node was started with (a benchmark run on its own). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && path.resolve(script) === fileURLToPath(moduleUrl);
}

async function earlierResults(): Promise<BenchResult[]> {
  const files = await readdir(RESULTS_DIR).catch(() => [] as string[]);
  const results: BenchResult[] = [];
  for (const file of files.filter((f) => f.endsWith(".json") && f !== "machine.json").sort()) {
    try {
      results.push(JSON.parse(await readFile(path.join(RESULTS_DIR, file), "utf8")) as BenchResult);
    } catch {
      // A half-written file from an interrupted run: ignore it.
    }
  }
  return results;
}

/**
 * Runs the benchmarks one after another (never at once: they would measure each other) and writes
 * RESULTS.md with this run's results, plus the last result of any benchmark not run this time
 * (marked as such). A benchmark that throws is reported as failed; the others still run.
 */
export async function runBenches(benches: readonly Bench[], order: readonly string[], args: BenchArgs): Promise<BenchResult[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const machineFile = path.join(RESULTS_DIR, "machine.json");
  if (args.report) {
    const machine = JSON.parse(await readFile(machineFile, "utf8")) as MachineInfo;
    const stored = (await earlierResults()).sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    // The last full run is shown as such; a result older than the machine reading is marked earlier.
    const all = stored.map((result) => ({ result, earlier: result.startedAt < machine.startedAt }));
    await writeResults(machine, all);
    return stored;
  }
  const machine = { ...(await machineInfo()), startedAt: new Date().toISOString() };
  await writeFile(machineFile, JSON.stringify(machine, null, 2));
  const results: BenchResult[] = [];
  for (const bench of benches) {
    const startedAt = new Date();
    const t0 = performance.now();
    const log = (message: string) => process.stderr.write(`[${bench.name} ${((performance.now() - t0) / 1000).toFixed(0)}s] ${message}\n`);
    log("starting");
    let result: BenchResult;
    const loadBefore = loadAverage();
    try {
      const outcome = await bench.run({ args, log });
      result = {
        name: bench.name,
        title: bench.title,
        startedAt: startedAt.toISOString(),
        elapsedMs: Math.round(performance.now() - t0),
        ...outcome,
        // The machine is shared: how busy it was says how much to trust the absolute figures.
        notes: [...outcome.notes, `Load average (1 min) at start ${loadBefore}, at end ${loadAverage()} on ${os.availableParallelism()} CPUs.`],
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
      result = {
        name: bench.name,
        title: bench.title,
        startedAt: startedAt.toISOString(),
        elapsedMs: Math.round(performance.now() - t0),
        metrics: [],
        notes: [],
        error: message,
      };
    }
    results.push(result);
    await writeFile(path.join(RESULTS_DIR, `${bench.name}.json`), JSON.stringify(result, null, 2));
    for (const m of result.metrics) log(`${m.name}: ${m.value}${m.target ? ` (target ${m.target}: ${m.met ? "met" : "MISSED"})` : ""}`);
    log(`done in ${(result.elapsedMs / 1000).toFixed(0)} s`);
  }

  const ran = new Set(results.map((r) => r.name));
  const earlier = (await earlierResults()).filter((r) => !ran.has(r.name));
  const all = [...results.map((result) => ({ result, earlier: false })), ...earlier.map((result) => ({ result, earlier: true }))].sort(
    (a, b) => order.indexOf(a.result.name) - order.indexOf(b.result.name),
  );
  await writeResults(machine, all);
  return results;
}

async function writeResults(machine: MachineInfo, all: readonly { result: BenchResult; earlier: boolean }[]): Promise<void> {
  const analysis = await readFile(path.join(BENCH_DIR, "ANALYSIS.md"), "utf8").catch(() => "");
  await writeFile(path.join(BENCH_DIR, "RESULTS.md"), renderResults(machine, all, analysis));
  process.stderr.write(`wrote ${path.relative(process.cwd(), path.join(BENCH_DIR, "RESULTS.md"))}\n`);
}

/** Every benchmark, in the order `npm run bench` runs them and RESULTS.md lists them. */
export const BENCH_NAMES = ["transit", "hot-order", "large-data", "console-load", "timeout-close", "outbox-relay", "http-pay", "console-browser", "order-presence"] as const;

/** The entry point of a benchmark file run on its own: its own options, then RESULTS.md. */
export async function runAlone(bench: Bench): Promise<void> {
  try {
    const { names, args } = parseArgs(process.argv.slice(2));
    if (names.length > 0) throw new Error(`${bench.name} takes options only, not names (${names.join(", ")})`);
    const [result] = await runBenches([bench], BENCH_NAMES, args);
    process.exit(result?.error ? 1 : 0);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

// What a benchmark reports, and how bench/RESULTS.md is written from it.

export interface Metric {
  readonly name: string;
  /** As shown: a rate, a ratio or a percentile, with its unit. */
  readonly value: string;
  /** The target, in words ("≥ 0.8"), when the metric has one. */
  readonly target?: string;
  /** Whether the target is met; undefined for a metric without a target. */
  readonly met?: boolean;
}

export interface BenchResult {
  readonly name: string;
  readonly title: string;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly elapsedMs: number;
  readonly metrics: readonly Metric[];
  /** What was run, on what data, and anything a reader needs to judge the figures. */
  readonly notes: readonly string[];
  /** Set when the benchmark failed: its message. */
  readonly error?: string;
}

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly postgres: string;
  readonly postgresSettings: string;
  readonly loadAverage: string;
  readonly date: string;
  readonly commit: string;
  readonly hostname: string;
  /** When the run began (ISO 8601). */
  readonly startedAt: string;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function verdict(metric: Metric): string {
  if (metric.met === undefined) return "";
  return metric.met ? "met" : "**missed**";
}

export function renderSection(result: BenchResult, fromEarlierRun: boolean): string {
  const lines = [`## ${result.title}`, ""];
  const when = `${result.startedAt.replace("T", " ").slice(0, 19)} UTC, ${(result.elapsedMs / 1000).toFixed(0)} s`;
  lines.push(fromEarlierRun ? `_From an earlier run (${when}): not run this time._` : `_Run ${when}._`, "");
  if (result.error) lines.push(`**Failed:** ${cell(result.error)}`, "");
  if (result.metrics.length > 0) {
    lines.push("| metric | value | target | |", "| --- | --- | --- | --- |");
    for (const m of result.metrics) lines.push(`| ${cell(m.name)} | ${cell(m.value)} | ${cell(m.target ?? "")} | ${verdict(m)} |`);
    lines.push("");
  }
  for (const note of result.notes) lines.push(`- ${note}`);
  if (result.notes.length > 0) lines.push("");
  return lines.join("\n");
}

export function renderResults(machine: MachineInfo, results: readonly { result: BenchResult; earlier: boolean }[], analysis: string): string {
  const targets = results.flatMap(({ result }) => result.metrics.filter((m) => m.met !== undefined).map((m) => ({ result, m })));
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand — the analysis below is kept in",
    "bench/ANALYSIS.md and copied in. Every figure comes from one run of one benchmark: rates are",
    "compared as ratios measured side by side, latencies as percentiles, because this 2-core machine",
    "is shared and noisy.",
    "",
    "## Machine",
    "",
    "| | |",
    "| --- | --- |",
    `| date | ${machine.date} |`,
    `| host | ${cell(machine.hostname)} |`,
    `| CPUs (nproc) | ${machine.cpus} × ${cell(machine.cpuModel)} |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| load average at start | ${machine.loadAverage} |`,
    `| Node.js | ${machine.node} |`,
    `| PostgreSQL | ${cell(machine.postgres)} |`,
    `| PostgreSQL settings | ${cell(machine.postgresSettings)} |`,
    `| commit | ${machine.commit} |`,
    "",
    "## Targets",
    "",
    "| benchmark | metric | value | target | |",
    "| --- | --- | --- | --- | --- |",
    ...targets.map(({ result, m }) => `| ${cell(result.title)} | ${cell(m.name)} | ${cell(m.value)} | ${cell(m.target ?? "")} | ${verdict(m)} |`),
    ...results.filter(({ result }) => result.error).map(({ result }) => `| ${cell(result.title)} | failed | ${cell(result.error ?? "")} | | **failed** |`),
    "",
    ...results.map(({ result, earlier }) => renderSection(result, earlier)),
  ];
  if (analysis.trim()) lines.push(analysis.trim(), "");
  return lines.join("\n");
}

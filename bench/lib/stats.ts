// Small statistics for latency samples (milliseconds).

/** Nearest-rank percentile of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`;
}

export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString("en-US")}/s`;
}

export function count(value: number): string {
  return value.toLocaleString("en-US");
}

export function sleep(msToWait: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, msToWait));
}

/** One timed round of an alternating A/B benchmark. */
export interface Round<Side extends string> {
  readonly side: Side;
  readonly transactions: number;
  readonly seconds: number;
  readonly tps: number;
  readonly detail: string;
}

/** One side's rate over its rounds, total over total (so a long round weighs as much as its time). */
export function totalRate<Side extends string>(rounds: readonly Round<Side>[], side: Side): number {
  const mine = rounds.filter((r) => r.side === side);
  return mine.reduce((n, r) => n + r.transactions, 0) / mine.reduce((n, r) => n + r.seconds, 0);
}

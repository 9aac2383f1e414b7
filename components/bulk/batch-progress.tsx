"use client";

import type { BatchSummary } from "@/lib/bulk/batches";

/**
 * A bulk batch's progress: a bar and the same words under it (`label`: "3 of 10 handled" in the
 * page's language). Every kind of batch shows it the same way (bulk compensation, bulk resend).
 */
export function BatchProgress({ summary, label }: { summary: BatchSummary; label: (done: number, total: number) => string }) {
  const done = summary.total - summary.counts.pending;
  const text = label(done, summary.total);
  return (
    <div>
      <div className="h-3 overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={summary.total} aria-valuenow={done} aria-label={text}>
        <div className="h-full bg-emerald-500 transition-all" style={{ width: `${summary.total ? (done / summary.total) * 100 : 100}%` }} />
      </div>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </div>
  );
}

/**
 * Runs a started batch to its end a chunk at a time, reporting each summary; another runner of the
 * same batch simply takes other chunks (nothing handled but items pending: look again shortly).
 * Returns the refusal that stopped it, if one did.
 */
export async function runToEnd<E>(
  chunk: () => Promise<{ ok: true; data: { handled: number; summary: BatchSummary | null } } | { ok: false; error: E }>,
  onSummary: (summary: BatchSummary | null) => void,
): Promise<E | null> {
  for (;;) {
    const result = await chunk();
    if (!result.ok) return result.error;
    onSummary(result.data.summary);
    if (!result.data.summary || result.data.summary.counts.pending === 0) return null;
    if (result.data.handled === 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

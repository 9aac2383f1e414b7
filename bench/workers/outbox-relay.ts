// One worker's outbox relay, in its own process: relayOutbox() with the worker's defaults (batches
// of 100, 16 requests in flight), batch after batch until a batch comes back empty. The worker loop
// (lib/jobs/worker.ts) does the same while batches come back full, and pauses otherwise.
//
// A profile on the side: the pool's query() is timed (the claim and the settle statements are the
// relay's only queries), so the batch time splits into database time and the POSTs in between.
import type pg from "pg";
import { closePool, getPool } from "@/lib/db/pool";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { DEADLINE_ENV, workerMain } from "../lib/child";

export interface RelayRun {
  readonly delivered: number;
  readonly retrying: number;
  readonly dead: number;
  readonly batches: number;
  readonly ms: number;
  /** Wall time inside the claim and settle statements. */
  readonly claimMs: number;
  readonly settleMs: number;
  /** The deadline stopped it before the outbox was empty. */
  readonly stoppedEarly: boolean;
}

function timeQueries(pool: pg.Pool, spent: { claim: number; settle: number }): void {
  const target = pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const original = target.query;
  target.query = async function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const text = typeof args[0] === "string" ? args[0] : "";
      if (/^\s*WITH due AS/.test(text)) spent.claim += performance.now() - t0;
      else if (/^\s*UPDATE outbox_messages/.test(text)) spent.settle += performance.now() - t0;
    }
  };
}

const spent = { claim: 0, settle: 0 };

workerMain<RelayRun>(
  async () => {
    const clients = await Promise.all(Array.from({ length: 2 }, () => getPool().connect()));
    clients.forEach((c) => c.release());
    timeQueries(getPool(), spent);
  },
  async () => {
    const t0 = performance.now();
    const totals = { delivered: 0, retrying: 0, dead: 0, batches: 0 };
    const deadline = t0 + Number(process.env[DEADLINE_ENV] ?? 600_000);
    let stoppedEarly = false;
    for (;;) {
      if (performance.now() > deadline) {
        stoppedEarly = true;
        break;
      }
      const report = await relayOutbox({ pool: getPool(), batchSize: 100 });
      if (report.claimed === 0) break;
      totals.batches++;
      totals.delivered += report.delivered;
      totals.retrying += report.retrying;
      totals.dead += report.dead;
    }
    return { ...totals, ms: performance.now() - t0, claimMs: spent.claim, settleMs: spent.settle, stoppedEarly };
  },
  closePool,
);

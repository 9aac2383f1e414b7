// One worker's outbox relay, in its own process: relayOutbox() with the worker's defaults (batches
// of 100, 16 requests in flight), batch after batch until a batch comes back empty. The worker loop
// (lib/jobs/worker.ts) does the same while batches come back full, and pauses otherwise.
import { closePool, getPool } from "@/lib/db/pool";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { workerMain } from "../lib/child";

export interface RelayRun {
  readonly delivered: number;
  readonly retrying: number;
  readonly dead: number;
  readonly batches: number;
  readonly ms: number;
}

workerMain<RelayRun>(
  async () => {
    const clients = await Promise.all(Array.from({ length: 2 }, () => getPool().connect()));
    clients.forEach((c) => c.release());
  },
  async () => {
    const t0 = performance.now();
    const totals = { delivered: 0, retrying: 0, dead: 0, batches: 0 };
    for (;;) {
      const report = await relayOutbox({ pool: getPool(), batchSize: 100 });
      if (report.claimed === 0) break;
      totals.batches++;
      totals.delivered += report.delivered;
      totals.retrying += report.retrying;
      totals.dead += report.dead;
    }
    return { ...totals, ms: performance.now() - t0 };
  },
  closePool,
);

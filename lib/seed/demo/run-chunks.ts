// The chunks of one run, shared out over the worker connections: each chunk one transaction.
import type pg from "pg";
import { z } from "zod";
import { execute, one, rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import type { DemoTenantId } from "../demo-catalog";
import { TENANT_ORDER } from "./catalog-rows";
import type { ChunkStatements } from "./chunk-statements";
import type { SeededTable } from "./seed-demo";
import { bind } from "./sql-helpers";

export interface Chunk {
  readonly from: number;
  readonly to: number;
}

/** What the committed chunks wrote. */
export interface Tally {
  readonly rows: Record<SeededTable, number>;
  readonly states: Record<OrderState, number>;
  readonly tenants: Record<DemoTenantId, number>;
  firstId: number;
  lastId: number;
}

/**
 * Connections for the workers. Connections to the embedded PGlite all share one session (and so
 * one set of temp tables, one transaction at a time): there, only the first one works.
 */
export async function connectWorkers(pool: pg.Pool, wanted: number): Promise<pg.PoolClient[]> {
  const clients: pg.PoolClient[] = [];
  try {
    for (let w = 0; w < wanted; w++) clients.push(await pool.connect());
    const pids = new Set<number>();
    const distinct: pg.PoolClient[] = [];
    for (const client of clients) {
      const { pid } = await one(client, z.object({ pid: z.number() }), `SELECT pg_backend_pid() AS pid`);
      if (pids.has(pid)) client.release();
      else {
        pids.add(pid);
        distinct.push(client);
      }
    }
    return distinct;
  } catch (error) {
    for (const client of clients) client.release(true);
    throw error;
  }
}

/**
 * Runs every chunk, on all workers at once. Each chunk's plan (where order ids are drawn from the
 * sequence) waits for the previous chunk's plan: ids follow the order index, so a run on an idle
 * database is reproducible id for id. The first failure stops the workers and is thrown.
 */
export async function runChunks(
  clients: readonly pg.PoolClient[],
  chunks: readonly Chunk[],
  statements: ChunkStatements,
  now: Date,
  tally: Tally,
  onChunk: (orders: number) => void,
): Promise<void> {
  let planTurn: Promise<void> = Promise.resolve();
  let next = 0;
  let failure: unknown = null;
  const work = async (client: pg.PoolClient): Promise<void> => {
    while (next < chunks.length && failure === null) {
      const chunk = chunks[next++]!;
      const myTurn = planTurn;
      let planned!: () => void;
      planTurn = new Promise((resolve) => (planned = resolve));
      try {
        await runChunk(client, statements, { ...chunk, now }, tally, async (plan) => {
          try {
            await myTurn;
            await plan();
          } finally {
            planned();
          }
        });
      } catch (error) {
        planned();
        failure ??= error;
        return;
      }
      onChunk(chunk.to - chunk.from + 1);
    }
  };
  await Promise.all(clients.map(work));
  if (failure !== null) throw failure;
}

const chunkRow = z.object({
  tenant_id: z.enum(TENANT_ORDER),
  state: z.enum(ORDER_STATES),
  n: z.number(),
  first: z.coerce.number(),
  last: z.coerce.number(),
});

/** One chunk, one transaction: plan, history, orders, lines, transitions, grants, exceptions. */
async function runChunk(
  client: pg.PoolClient,
  statements: ChunkStatements,
  params: Chunk & { readonly now: Date },
  tally: Tally,
  inPlanTurn: (plan: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const { counts, byState } = await transaction(
    async (tx) => {
      await inPlanTurn(async () => {
        const plan = bind(statements.plan, params);
        await execute(tx.client, plan.text, plan.values);
      });
      const counts: [SeededTable, number][] = [];
      for (const [table, sql] of statements.inserts) {
        const insert = bind(sql, params);
        const n = await execute(tx.client, insert.text, insert.values);
        if (table) counts.push([table, n]);
      }
      const byState = await rows(
        tx.client,
        chunkRow,
        `SELECT p.tenant_id, sc.final_state AS state, count(*)::int AS n, min(p.id) AS first, max(p.id) AS last
         FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario GROUP BY 1, 2`,
      );
      return { counts, byState };
    },
    // The seeder's own connection; losing the last chunks of demo data in a crash is harmless,
    // waiting for each WAL flush is not free.
    { client, setLocal: ["SET LOCAL synchronous_commit = off"] },
  );
  // Counted only once committed, so the report never includes a chunk that rolled back.
  for (const [table, n] of counts) tally.rows[table] += n;
  for (const r of byState) {
    tally.states[r.state] += r.n;
    tally.tenants[r.tenant_id] += r.n;
    tally.firstId = Math.min(tally.firstId, r.first);
    tally.lastId = Math.max(tally.lastId, r.last);
  }
}

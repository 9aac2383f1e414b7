import type pg from "pg";
import { execute } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { HISTORY_PROFILES, type DemoTenantId, type HistoryProfile } from "../demo-catalog";
import { DEMO_TENANTS, ensureTenant } from "../tenants";
import { TENANT_ORDER } from "./catalog-rows";
import { chunkStatements } from "./chunk-statements";
import { connectWorkers, runChunks, type Tally } from "./run-chunks";
import { DROP_SESSION_OBJECTS, prepareSession, tenantRows } from "./session";

export interface SeedDemoOptions {
  /** How many orders to add, split about 75/25 between xiaoxiao and fangzhou. */
  readonly orders: number;
  /** Same seed, same orders (shapes, prices, players, timestamps relative to `now`). Default 1. */
  readonly seed?: number;
  /** The "now" every timestamp is measured back from. Default: the current time. */
  readonly now?: Date;
  /** `dense` (default, >5 transitions per order) or `typical` (seed 000's proportions). */
  readonly history?: HistoryProfile;
  /** Orders per statement batch and transaction. */
  readonly chunkSize?: number;
  /** Connections working on chunks at once (default 2; 1 on the embedded PGlite, which has one session). */
  readonly workers?: number;
  /** Called after each committed chunk. */
  readonly onProgress?: (done: number, total: number) => void;
}

export const SEEDED_TABLES = ["orders", "order_lines", "order_transitions", "grants", "take_backs", "order_exceptions", "payment_refunds"] as const;
export type SeededTable = (typeof SEEDED_TABLES)[number];

export interface SeedReport {
  readonly seed: number;
  readonly history: HistoryProfile;
  /** Rows this run inserted, per table. */
  readonly rows: Record<SeededTable, number>;
  /** Orders this run inserted, per final state and per tenant. */
  readonly states: Record<OrderState, number>;
  readonly tenants: Record<DemoTenantId, number>;
  readonly orderIds: { readonly first: number; readonly last: number } | null;
  readonly elapsedMs: number;
}

export const DEFAULT_SEED = 1;
const DEFAULT_CHUNK = 25_000;
/** PostgreSQL runs a statement on one core; two connections keep a 2-core server busy. */
const DEFAULT_WORKERS = 2;
const MAX_ORDERS = 50_000_000;

/**
 * Fills the two demo tenants with `orders` orders whose histories are legal walks of the state
 * table, with lines, grants (partial deliveries, refund reversals), stuck orders and exceptions.
 *
 * Everything is generated inside PostgreSQL: per chunk, a handful of INSERT … SELECT statements
 * over generate_series (chunk-statements.ts), randomness from hashint8extended(index, seed)
 * (reproducible, unlike random(), whatever order rows are evaluated in). Node holds no rows, so
 * memory stays flat at any size; each chunk is one transaction, so a failure leaves whole orders
 * only. Most of the time goes to maintaining the tables' indexes (order_transitions has five), so
 * two connections work at once. No outbox messages are written: the relay would otherwise replay
 * months of history as webhooks.
 *
 * Running it again adds another batch rather than failing: ids come from the orders sequence and
 * order numbers, channel transaction ids and refund ids are derived from the id, so nothing
 * collides. The same seed repeats the same shapes (and players) under new numbers.
 */
export async function seedDemo(pool: pg.Pool, options: SeedDemoOptions): Promise<SeedReport> {
  const started = performance.now();
  const total = options.orders;
  const seed = options.seed ?? DEFAULT_SEED;
  const history = options.history ?? "dense";
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const now = options.now ?? new Date();
  const workers = options.workers ?? DEFAULT_WORKERS;
  if (!Number.isInteger(total) || total < 0 || total > MAX_ORDERS) {
    throw new RangeError(`orders must be an integer between 0 and ${MAX_ORDERS}, not ${total}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1) {
    throw new RangeError(`seed must be an integer between 0 and ${2 ** 31 - 1}, not ${seed}`);
  }
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer`);
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer`);
  if (!HISTORY_PROFILES.includes(history)) throw new RangeError(`history must be one of ${HISTORY_PROFILES.join(", ")}`);

  const specs = TENANT_ORDER.map((id) => {
    const spec = DEMO_TENANTS.find((t) => t.id === id);
    if (!spec) throw new Error(`DEMO_TENANTS has no tenant ${id}`);
    return spec;
  });
  for (const spec of specs) await ensureTenant(pool, spec);

  const tally: Tally = {
    rows: Object.fromEntries(SEEDED_TABLES.map((t) => [t, 0])) as Record<SeededTable, number>,
    states: Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>,
    tenants: Object.fromEntries(TENANT_ORDER.map((t) => [t, 0])) as Record<DemoTenantId, number>,
    firstId: Infinity,
    lastId: -Infinity,
  };
  const chunks = Array.from({ length: Math.ceil(total / chunkSize) }, (_, k) => ({
    from: k * chunkSize + 1,
    to: Math.min(total, (k + 1) * chunkSize),
  }));

  const clients = await connectWorkers(pool, Math.max(1, Math.min(workers, chunks.length)));
  try {
    const tenantTable = await tenantRows(clients[0]!, specs, total);
    for (const client of clients) await prepareSession(client, seed, tenantTable);
    let done = 0;
    await runChunks(clients, chunks, chunkStatements(history), now, tally, (orders) => {
      done += orders;
      options.onProgress?.(done, total);
    });
    // A million fresh rows with no statistics would leave the planner guessing until autovacuum.
    if (total > 0) await execute(clients[0]!, `ANALYZE ${SEEDED_TABLES.join(", ")}`);
  } finally {
    for (const client of clients) {
      // Embedded PGlite keeps one session for every connection, so clean up rather than rely on the
      // session ending; then destroy the connection instead of pooling a session with our state.
      await execute(client, DROP_SESSION_OBJECTS).catch(() => undefined);
      client.release(true);
    }
  }

  const { rows, states, tenants } = tally;
  const orderIds = rows.orders > 0 ? { first: tally.firstId, last: tally.lastId } : null;
  return { seed, history, rows, states, tenants, orderIds, elapsedMs: Math.round(performance.now() - started) };
}

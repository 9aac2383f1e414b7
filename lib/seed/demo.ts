import type pg from "pg";
import { REFUND_DISPOSITION } from "@/lib/orders/guards";
import { ORDER_STATES, refusal, type OrderState } from "@/lib/orders/machine";
import {
  DEMO_CATALOG,
  HISTORY_PROFILES,
  pickTable,
  planScenario,
  SCENARIOS,
  type DemoProduct,
  type DemoTenantId,
  type HistoryProfile,
} from "./demo-catalog";
import { DEMO_TENANTS, ensureTenant, type TenantSpec } from "./tenants";

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

export const SEEDED_TABLES = ["orders", "order_lines", "order_transitions", "grants", "order_exceptions"] as const;
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

const TENANT_ORDER: readonly DemoTenantId[] = ["xiaoxiao", "fangzhou"];
const SECOND_US = 1_000_000;
const MINUTE_US = 60 * SECOND_US;
const HOUR_US = 60 * MINUTE_US;
const DAY_US = 24 * HOUR_US;
/** Settled orders end somewhere in the last 89 days, their whole history included. */
const WINDOW_US = 89 * DAY_US;

/**
 * Fills the two demo tenants with `orders` orders whose histories are legal walks of the state
 * table, with lines, grants (partial deliveries, refund reversals), stuck orders and exceptions.
 *
 * Everything is generated inside PostgreSQL: per chunk, a handful of INSERT … SELECT statements
 * over generate_series, randomness from hashint8extended(index, seed) (reproducible, unlike
 * random(), whatever order rows are evaluated in). Node holds no rows, so memory stays flat at
 * any size; each chunk is one transaction, so a failure leaves whole orders only. Most of the time
 * goes to maintaining the tables' indexes (order_transitions has five), so two connections work at
 * once. No outbox messages are written: the relay would otherwise replay months of history as
 * webhooks.
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
    const statements = chunkStatements(history);

    // Chunks run on all workers at once, but each chunk's plan (where order ids are drawn from the
    // sequence) waits for the previous chunk's plan: ids follow the order index, so a run on an
    // idle database is reproducible id for id.
    let planTurn: Promise<void> = Promise.resolve();
    let next = 0;
    let done = 0;
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
        done += chunk.to - chunk.from + 1;
        options.onProgress?.(done, total);
      }
    };
    await Promise.all(clients.map(work));
    if (failure !== null) throw failure;
    // A million fresh rows with no statistics would leave the planner guessing until autovacuum.
    if (total > 0) await clients[0]!.query(`ANALYZE ${SEEDED_TABLES.join(", ")}`);
  } finally {
    for (const client of clients) {
      // Embedded PGlite keeps one session for every connection, so clean up rather than rely on the
      // session ending; then destroy the connection instead of pooling a session with our state.
      await client.query(DROP_SESSION_OBJECTS).catch(() => undefined);
      client.release(true);
    }
  }

  const { rows, states, tenants } = tally;
  const orderIds = rows.orders > 0 ? { first: tally.firstId, last: tally.lastId } : null;
  return { seed, history, rows, states, tenants, orderIds, elapsedMs: Math.round(performance.now() - started) };
}

interface Tally {
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
async function connectWorkers(pool: pg.Pool, wanted: number): Promise<pg.PoolClient[]> {
  const clients: pg.PoolClient[] = [];
  try {
    for (let w = 0; w < wanted; w++) clients.push(await pool.connect());
    const pids = new Set<number>();
    const distinct: pg.PoolClient[] = [];
    for (const client of clients) {
      const { rows } = await client.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
      if (pids.has(rows[0]!.pid)) client.release();
      else {
        pids.add(rows[0]!.pid);
        distinct.push(client);
      }
    }
    return distinct;
  } catch (error) {
    for (const client of clients) client.release(true);
    throw error;
  }
}

/** One chunk, one transaction: plan, history, orders, lines, transitions, grants, exceptions. */
async function runChunk(
  client: pg.PoolClient,
  statements: ChunkStatements,
  params: { from: number; to: number; now: Date },
  tally: Tally,
  inPlanTurn: (plan: () => Promise<void>) => Promise<void>,
): Promise<void> {
  await client.query("BEGIN");
  try {
    // Losing the last chunks of demo data in a crash is harmless; waiting for each WAL flush is not free.
    await client.query("SET LOCAL synchronous_commit = off");
    await inPlanTurn(async () => {
      await client.query(bind(statements.plan, params));
    });
    const counts: [SeededTable, number][] = [];
    for (const [table, sql] of statements.inserts) {
      const result = await client.query(bind(sql, params));
      if (table) counts.push([table, result.rowCount ?? 0]);
    }
    const { rows } = await client.query<{ tenant_id: DemoTenantId; state: OrderState; n: number; first: string; last: string }>(
      `SELECT p.tenant_id, sc.final_state AS state, count(*)::int AS n, min(p.id) AS first, max(p.id) AS last
       FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario GROUP BY 1, 2`,
    );
    await client.query("COMMIT");
    // Counted only once committed, so the report never includes a chunk that rolled back.
    for (const [table, n] of counts) tally.rows[table] += n;
    for (const r of rows) {
      tally.states[r.state] += r.n;
      tally.tenants[r.tenant_id] += r.n;
      tally.firstId = Math.min(tally.firstId, Number(r.first));
      tally.lastId = Math.max(tally.lastId, Number(r.last));
    }
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}


// ---------------------------------------------------------------------------------------------
// Session setup: the catalogue and scenarios as small temp tables, and the per-chunk work tables.

interface TenantRow {
  t: number;
  tenant_id: string;
  order_prefix: string;
  player_prefix: string;
  players: number;
  currency: string;
  refund_approval_amount: number;
  unpaid_us: number;
  dwell_created_us: number;
  dwell_paid_us: number;
  dwell_delivering_us: number;
  dwell_refunding_us: number;
  delivery_actor: string;
  delivery_source: string;
  delivery_key_prefix: string | null;
  grant_prefix: string;
}

/** Reads the thresholds from tenant_settings (they may have been edited), falling back to the spec. */
async function tenantRows(client: pg.PoolClient, specs: readonly TenantSpec[], total: number): Promise<TenantRow[]> {
  const { rows } = await client.query<{
    tenant_id: string;
    unpaid_timeout_seconds: number;
    max_dwell_seconds: Record<string, number>;
    refund_approval_amount: number;
  }>(
    `SELECT tenant_id, unpaid_timeout_seconds, max_dwell_seconds, refund_approval_amount FROM tenant_settings
     WHERE tenant_id = ANY($1)`,
    [specs.map((s) => s.id)],
  );
  return specs.map((spec, index) => {
    const id = spec.id as DemoTenantId;
    const catalog = DEMO_CATALOG[id];
    const settings = rows.find((r) => r.tenant_id === id);
    const unpaid = settings?.unpaid_timeout_seconds ?? spec.unpaidTimeoutSeconds;
    const dwell = (state: OrderState, fallback: number): number =>
      (settings?.max_dwell_seconds[state] ?? spec.maxDwellSeconds[state] ?? fallback) * SECOND_US;
    return {
      t: index + 1,
      tenant_id: id,
      order_prefix: catalog.orderPrefix,
      player_prefix: catalog.playerPrefix,
      players: Math.max(10, Math.ceil((total * catalog.share) / catalog.ordersPerPlayer)),
      currency: spec.currency,
      refund_approval_amount: settings?.refund_approval_amount ?? spec.refundApprovalAmount,
      unpaid_us: unpaid * SECOND_US,
      dwell_created_us: dwell("created", unpaid),
      dwell_paid_us: dwell("paid", 300),
      dwell_delivering_us: dwell("delivering", 600),
      dwell_refunding_us: dwell("refunding", 3 * 86_400),
      delivery_actor: catalog.delivery.actor,
      delivery_source: catalog.delivery.source,
      delivery_key_prefix: catalog.delivery.bizKeyPrefix,
      grant_prefix: catalog.delivery.grantPrefix,
    };
  });
}

/** What a partly delivered order of this product looks like: the first line half granted, the rest not. */
function partialProgress(product: DemoProduct): { pendingText: string; pendingSku: string } {
  const lines = product.lines.map((l, index) => ({ ...l, granted: index === 0 ? Math.floor(l.quantity / 2) : 0 }));
  const pending = lines.filter((l) => l.granted < l.quantity).sort((a, b) => a.sku.localeCompare(b.sku));
  return {
    pendingText: pending.map((l) => `${l.sku} ${l.granted}/${l.quantity}`).join(", "),
    pendingSku: (product.lines[1] ?? product.lines[0]!).sku,
  };
}

const DROP_SESSION_OBJECTS = `DROP TABLE IF EXISTS pg_temp.seed_tenants, pg_temp.seed_products, pg_temp.seed_lines,
  pg_temp.seed_scenarios, pg_temp.seed_steps_def, pg_temp.seed_plan, pg_temp.seed_steps, pg_temp.seed_ev;
  DROP FUNCTION IF EXISTS pg_temp.seed_u(bigint, int)`;

async function prepareSession(client: pg.PoolClient, seed: number, tenants: readonly TenantRow[]): Promise<void> {
  // Only settable before the session touches a temp table; the default 8MB would spill each chunk to disk.
  await client.query("SET temp_buffers = '128MB'").catch(() => undefined);
  // Schema-qualified: an unqualified name could resolve to a real table of the same name.
  await client.query(DROP_SESSION_OBJECTS);
  await client.query(`
    CREATE TEMP TABLE seed_tenants (t int PRIMARY KEY, tenant_id text, order_prefix text, player_prefix text,
      players int, currency text, refund_approval_amount int, unpaid_us bigint, dwell_created_us bigint, dwell_paid_us bigint,
      dwell_delivering_us bigint, dwell_refunding_us bigint, delivery_actor text, delivery_source text,
      delivery_key_prefix text, grant_prefix text);
    CREATE TEMP TABLE seed_products (t int, product int, code text, price int, pending_text text, pending_sku text,
      PRIMARY KEY (t, product));
    CREATE TEMP TABLE seed_lines (t int, product int, line_no int, sku text, kind text, quantity int, disposition text);
    CREATE TEMP TABLE seed_scenarios (scenario int PRIMARY KEY, code text, final_state text, tail text, close_via text,
      delivery text, steps int, events text[]);
    CREATE TEMP TABLE seed_steps_def (scenario int, step int, event text, from_state text, to_state text, cycle int);
    CREATE TEMP TABLE seed_plan (i bigint, id bigint, t int, tenant_id text, scenario int, product int, amount int,
      player_id text, channel text, manual_pay boolean, repaired boolean, split boolean, showcase boolean,
      created_at timestamptz, end_at timestamptz) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE seed_steps (id bigint, i bigint, step int, event text, from_state text, to_state text,
      at timestamptz, prev_at timestamptz, next_at timestamptz, biz_key text, actor text, source text, reason text)
      ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE seed_ev (id bigint, pay_at timestamptz, pay_next_at timestamptz, begin_at timestamptz,
      begin_next_at timestamptz, confirm_at timestamptz, confirm_prev_at timestamptz, refund_at timestamptz,
      refund_key text, refund_actor text, refund_source text, refund_reason text, close_at timestamptz)
      ON COMMIT DELETE ROWS;
    -- Uniform in [0, 1) from (order index, salt): a pure function of the seed, so runs repeat exactly.
    CREATE OR REPLACE FUNCTION pg_temp.seed_u(i bigint, salt int) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS 'SELECT (hashint8extended(i * 128 + salt, ${seed}) & 9007199254740991)::float8 / 9007199254740992';`);

  const products = TENANT_ORDER.flatMap((id, index) =>
    DEMO_CATALOG[id].products.map((p, pIndex) => {
      const { pendingText, pendingSku } = partialProgress(p);
      return { t: index + 1, product: pIndex + 1, code: p.code, price: p.price, pending_text: pendingText, pending_sku: pendingSku };
    }),
  );
  const lines = TENANT_ORDER.flatMap((id, index) =>
    DEMO_CATALOG[id].products.flatMap((p, pIndex) =>
      p.lines.map((l, lIndex) => ({
        t: index + 1,
        product: pIndex + 1,
        line_no: lIndex + 1,
        sku: l.sku,
        kind: l.kind,
        quantity: l.quantity,
        disposition: REFUND_DISPOSITION[l.kind],
      })),
    ),
  );
  const plans = SCENARIOS.map((s) => planScenario(s.events));
  const scenarios = SCENARIOS.map((s, index) => ({
    scenario: index + 1,
    code: s.code,
    final_state: plans[index]!.finalState,
    tail: s.tail,
    close_via: s.closeVia ?? null,
    delivery: plans[index]!.delivery,
    steps: s.events.length,
    events: s.events,
  }));
  const steps = plans.flatMap((plan, index) =>
    plan.steps.map((s) => ({ scenario: index + 1, step: s.step, event: s.event, from_state: s.from, to_state: s.to, cycle: s.cycle })),
  );
  for (const [table, data] of [
    ["seed_tenants", tenants],
    ["seed_products", products],
    ["seed_lines", lines],
    ["seed_scenarios", scenarios],
    ["seed_steps_def", steps],
  ] as const) {
    await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`, [
      JSON.stringify(data),
    ]);
  }
}

// ---------------------------------------------------------------------------------------------
// Per chunk: $from..$to is the range of order indexes (1-based, within this run), $now is "now".

const u = (i: string, salt: number | string): string => `pg_temp.seed_u(${i}, ${salt})`;
/** Microseconds between two timestamptz expressions, as float8. */
const us = (later: string, earlier: string): string => `(extract(epoch FROM (${later}) - (${earlier})) * 1000000)::float8`;
const micros = (expr: string): string => `(floor(${expr})::bigint * interval '1 microsecond')`;
/** Beijing wall-clock time (the channels' and players' clock), without relying on tz data. */
const local = (ts: string, format: string): string => `to_char((${ts}) AT TIME ZONE 'UTC' + interval '8 hours', '${format}')`;

interface GapColumns {
  readonly i: string;
  readonly step: string;
  readonly event: string;
  readonly manualPay: string;
  readonly repaired: string;
  readonly closeVia: string;
  readonly unpaidUs: string;
}

/**
 * The delay before each step, in microseconds: payment within minutes (a manual confirmation
 * hours later), delivery in seconds (a repair hours later), a refund request minutes to days after
 * the last step and the channel's answer within three days. The timeout job closes just after the
 * tenant's unpaid timeout; an agent closes before it.
 */
function gapSql(c: GapColumns): string {
  const r = u(c.i, `16 + ${c.step}`);
  return `floor(CASE ${c.event}
    WHEN 'pay' THEN CASE WHEN ${c.manualPay} THEN ${10 * MINUTE_US} + ${r} * ${2 * HOUR_US} ELSE ${3 * SECOND_US} + ${r} * ${170 * SECOND_US} END
    WHEN 'begin-delivery' THEN 50000 + ${r} * ${2 * SECOND_US}
    WHEN 'confirm-delivery' THEN CASE WHEN ${c.repaired} THEN ${30 * MINUTE_US} + ${r} * ${4 * HOUR_US} ELSE 300000 + ${r} * ${r} * ${30 * SECOND_US} END
    WHEN 'request-refund' THEN ${10 * MINUTE_US} + ${r} * ${r} * ${10 * DAY_US}
    WHEN 'close' THEN CASE WHEN ${c.closeVia} = 'job' THEN ${c.unpaidUs} + ${5 * SECOND_US} + ${r} * ${2 * MINUTE_US}
                           ELSE ${MINUTE_US} + ${r} * 0.8 * ${c.unpaidUs} END
    ELSE ${30 * MINUTE_US} + ${r} * ${3 * DAY_US}
  END)::bigint`;
}

interface ChunkStatements {
  readonly plan: string;
  /** In order; the table a statement fills, for the report (null: a work table). */
  readonly inserts: readonly (readonly [SeededTable | null, string])[];
}

function chunkStatements(history: HistoryProfile): ChunkStatements {
  const showcase = SCENARIOS.length * TENANT_ORDER.length;
  const scenarioPick = `ARRAY[${pickTable(SCENARIOS.map((s) => s.weight[history])).join(",")}]`;
  const productPick = `ARRAY[${TENANT_ORDER.map((id) => `[${pickTable(DEMO_CATALOG[id].products.map((p) => p.weight)).join(",")}]`).join(",")}]`;
  const xiaoxiaoShare = DEMO_CATALOG.xiaoxiao.share;

  // 1. The plan: one row per order. The first 2×|scenarios| orders of a run are a showcase, one of
  // every scenario per tenant, so even a small seed has every state, stuck order and exception.
  const plan = `
    INSERT INTO seed_plan (i, id, t, tenant_id, scenario, product, amount, player_id, channel, manual_pay, repaired,
      split, showcase, created_at, end_at)
    SELECT x.i, nextval(pg_get_serial_sequence('orders', 'id')), x.t, x.tenant_id, x.scenario, x.product, x.price,
      x.player_id, x.channel, x.manual_pay, x.repaired, x.split, x.showcase,
      $now::timestamptz - (x.tail_us + x.span_us) * interval '1 microsecond',
      $now::timestamptz - x.tail_us * interval '1 microsecond'
    FROM (
      SELECT o.*, floor(CASE o.tail
          WHEN 'fresh' THEN ${u("o.i", 5)} * 0.8 * o.dwell_us
          WHEN 'stuck' THEN o.dwell_us + ${15 * MINUTE_US} + ${u("o.i", 5)} * ${u("o.i", 5)} * ${3 * DAY_US}
          ELSE ${u("o.i", 5)} * (${WINDOW_US} - o.span_us)
        END)::bigint AS tail_us
      FROM (
        SELECT o.*, (SELECT coalesce(sum(${gapSql({ i: "o.i", step: "d.step::int", event: "d.event", manualPay: "o.manual_pay", repaired: "o.repaired", closeVia: "o.close_via", unpaidUs: "o.unpaid_us" })}), 0)::bigint
                     FROM unnest(o.events) WITH ORDINALITY AS d(event, step)) AS span_us
        FROM (
          SELECT b.i, b.t, b.scenario, b.showcase, tn.tenant_id, tn.unpaid_us, sc.tail, sc.close_via, sc.events,
            CASE sc.final_state WHEN 'created' THEN tn.dwell_created_us WHEN 'paid' THEN tn.dwell_paid_us
              WHEN 'delivering' THEN tn.dwell_delivering_us WHEN 'refunding' THEN tn.dwell_refunding_us ELSE 0 END AS dwell_us,
            pr.product, pr.price,
            tn.player_prefix || (1000000 + floor(tn.players * power(${u("b.i", 9)}, 1.6)))::bigint AS player_id,
            CASE WHEN ${u("b.i", 4)} < 0.55 THEN 'alipay' ELSE 'wechat' END AS channel,
            NOT b.showcase AND ${u("b.i", 6)} < 0.02 AS manual_pay,
            NOT b.showcase AND ${u("b.i", 7)} < 0.03 AS repaired,
            ${u("b.i", 8)} < 0.3 AS split
          FROM (
            SELECT g.i, g.i <= ${showcase} AS showcase,
              CASE WHEN g.i <= ${showcase} THEN 1 + ((g.i - 1) % ${TENANT_ORDER.length})::int
                   WHEN ${u("g.i", 1)} < ${xiaoxiaoShare} THEN 1 ELSE 2 END AS t,
              CASE WHEN g.i <= ${showcase} THEN 1 + ((g.i - 1) / ${TENANT_ORDER.length})::int
                   ELSE (${scenarioPick})[1 + floor(${u("g.i", 2)} * 1000)::int] END AS scenario
            FROM generate_series($from::bigint, $to::bigint) AS g(i)
          ) b
          JOIN seed_tenants tn ON tn.t = b.t
          JOIN seed_scenarios sc ON sc.scenario = b.scenario
          JOIN seed_products pr ON pr.t = b.t AND pr.product = (${productPick})[b.t][1 + floor(${u("b.i", 3)} * 1000)::int]
        ) o
        OFFSET 0 -- a fence: span_us is used three times above, and must be computed once
      ) o
    ) x
    ORDER BY x.i`;

  // 2. The history: one row per transition, at the plan's created_at plus the running sum of gaps,
  // so the last one lands exactly on state_at. Who acted decides actor, source and biz_key.
  const who = `CASE z.event
      WHEN 'pay' THEN CASE WHEN z.manual_pay THEN 'ops' ELSE 'channel' END
      WHEN 'begin-delivery' THEN 'delivery'
      WHEN 'confirm-delivery' THEN CASE WHEN z.repaired THEN 'ops' ELSE 'delivery' END
      WHEN 'close' THEN CASE WHEN z.close_via = 'job' THEN 'job' ELSE 'agent' END
      -- Above the tenant's approval amount an agent's request waits for a manager: keep those to the channels.
      WHEN 'request-refund' THEN CASE WHEN ${u("z.i", "40 + z.step")} < 0.4 AND z.amount <= z.refund_approval_amount THEN 'agent' ELSE 'channel' END
      ELSE CASE WHEN ${u("z.i", "40 + z.step")} < 0.25 THEN 'ops' ELSE 'channel' END
    END`;
  const pick = (options: readonly string[], salt: string): string =>
    `(ARRAY[${options.map((o) => `'${o.replaceAll("'", "''")}'`).join(", ")}])[1 + floor(${u("y.i", salt)} * ${options.length})::int]`;
  const steps = `
    INSERT INTO seed_steps (id, i, step, event, from_state, to_state, at, prev_at, next_at, biz_key, actor, source, reason)
    SELECT y.id, y.i, y.step, y.event, y.from_state, y.to_state, y.at,
      coalesce(lag(y.at) OVER w, y.created_at), lead(y.at) OVER w,
      CASE y.event
        WHEN 'pay' THEN y.channel || '-' || ${local("y.at", "YYYYMMDDHH24MISS")} || lpad(y.id::text, 10, '0')
        WHEN 'close' THEN CASE y.who WHEN 'job' THEN 'timeout' ELSE y.form_key END
        WHEN 'begin-delivery' THEN coalesce(y.delivery_key_prefix || y.id, 'delivery')
        WHEN 'confirm-delivery' THEN CASE y.who WHEN 'ops' THEN y.form_key ELSE coalesce(y.delivery_key_prefix || y.id, 'delivery') END
        ELSE CASE y.who WHEN 'agent' THEN y.form_key
          ELSE 'RF' || ${local("y.created_at", "YYYYMMDD")} || lpad(y.id::text, 10, '0') || lpad(y.cycle::text, 2, '0') END
      END,
      CASE y.who WHEN 'channel' THEN 'channel:' || y.channel WHEN 'delivery' THEN y.delivery_actor
        WHEN 'ops' THEN 'staff:ops@example.com' WHEN 'agent' THEN 'staff:agent@example.com' ELSE 'system:timeout-close' END,
      CASE y.who WHEN 'channel' THEN 'callback' WHEN 'delivery' THEN y.delivery_source WHEN 'job' THEN 'job' ELSE 'console' END,
      CASE y.event
        WHEN 'pay' THEN CASE y.who WHEN 'ops' THEN 'manual confirmation: the player sent the ' || y.channel || ' receipt' END
        WHEN 'confirm-delivery' THEN CASE y.who WHEN 'ops' THEN 'repair delivery: pending lines granted by hand after the grant endpoint outage' END
        WHEN 'close' THEN CASE y.who WHEN 'job' THEN 'unpaid after ' || (y.unpaid_us / ${MINUTE_US}) || ' min'
          ELSE ${pick(["player cancelled before paying", "duplicate order opened by mistake", "player wants a different pack"], "50 + y.step")} END
        WHEN 'request-refund' THEN CASE y.who WHEN 'agent' THEN ${pick(["player bought the wrong pack", "charged twice for the same pack", "items did not arrive in time", "minor's purchase, guardian asked for a refund"], "50 + y.step")}
          ELSE 'refund requested by the player through ' || y.channel END
        WHEN 'reject-refund' THEN CASE y.who WHEN 'ops' THEN ${pick(["refused after review: the items were already used", "refused: outside the 7-day refund window"], "50 + y.step")}
          ELSE 'refused by ' || y.channel || ': ' || ${pick(["items already consumed", "outside the refund window", "duplicate refund request"], "50 + y.step")} END
        WHEN 'confirm-refund' THEN CASE y.who WHEN 'ops' THEN 'refund receipt checked by ops' ELSE 'refund completed by ' || y.channel END
      END
    FROM (
      SELECT z.*, ${who} AS who, 'form-' || left(md5(z.id || ':' || z.step), 16) AS form_key
      FROM (
        SELECT p.id, p.i, p.channel, p.manual_pay, p.repaired, p.created_at, p.amount, d.step, d.event, d.from_state,
          d.to_state, d.cycle, tn.delivery_actor, tn.delivery_source, tn.delivery_key_prefix, tn.unpaid_us,
          tn.refund_approval_amount, sc.close_via,
          p.created_at + sum(${gapSql({ i: "p.i", step: "d.step", event: "d.event", manualPay: "p.manual_pay", repaired: "p.repaired", closeVia: "sc.close_via", unpaidUs: "tn.unpaid_us" })})
            OVER (PARTITION BY p.id ORDER BY d.step) * interval '1 microsecond' AS at
        FROM seed_plan p
        JOIN seed_steps_def d ON d.scenario = p.scenario
        JOIN seed_tenants tn ON tn.t = p.t
        JOIN seed_scenarios sc ON sc.scenario = p.scenario
      ) z
    ) y
    WINDOW w AS (PARTITION BY y.id ORDER BY y.step)`;

  // 3. The moments grants and exceptions hang off, one row per order.
  const ev = `
    INSERT INTO seed_ev
    SELECT id,
      min(at) FILTER (WHERE event = 'pay'), min(next_at) FILTER (WHERE event = 'pay'),
      min(at) FILTER (WHERE event = 'begin-delivery'), min(next_at) FILTER (WHERE event = 'begin-delivery'),
      min(at) FILTER (WHERE event = 'confirm-delivery'), min(prev_at) FILTER (WHERE event = 'confirm-delivery'),
      min(at) FILTER (WHERE event = 'confirm-refund'), min(biz_key) FILTER (WHERE event = 'confirm-refund'),
      min(actor) FILTER (WHERE event = 'confirm-refund'), min(source) FILTER (WHERE event = 'confirm-refund'),
      min(reason) FILTER (WHERE event = 'confirm-refund'),
      min(at) FILTER (WHERE event = 'close')
    FROM seed_steps GROUP BY id`;

  const orders = `
    INSERT INTO orders (id, tenant_id, order_no, player_id, amount, currency, state, state_at, version, created_at, updated_at)
    SELECT p.id, p.tenant_id, tn.order_prefix || ${local("p.created_at", "YYYYMMDD")} || lpad(p.id::text, 10, '0'),
      p.player_id, p.amount, tn.currency, sc.final_state, p.end_at, sc.steps, p.created_at, p.end_at
    FROM seed_plan p JOIN seed_tenants tn ON tn.t = p.t JOIN seed_scenarios sc ON sc.scenario = p.scenario
    ORDER BY p.id`;

  const lines = `
    INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
    SELECT p.tenant_id, p.id, l.sku, l.kind, l.quantity
    FROM seed_plan p JOIN seed_lines l ON l.t = p.t AND l.product = p.product
    ORDER BY p.id, l.line_no`;

  const transitions = `
    INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
    SELECT p.tenant_id, s.id, s.event, s.from_state, s.to_state, s.biz_key, s.actor, s.source, s.reason, s.at
    FROM seed_steps s JOIN seed_plan p ON p.id = s.id
    ORDER BY s.id, s.step`;

  // 4. The ledger. Line 1 goes in two batches when split (always when delivery stalled half way),
  // the other lines in one batch just before confirm-delivery; a partial delivery has only the
  // first batch. confirm-refund reverses whatever was granted, with transit()'s grant id and reason.
  const grants = `
    INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason, created_at)
    SELECT p.tenant_id, p.id, l.sku, g.grant_id, g.quantity, g.source, g.actor, g.reason, g.at
    FROM seed_plan p
    JOIN seed_scenarios sc ON sc.scenario = p.scenario AND sc.delivery <> 'none'
    JOIN seed_ev e ON e.id = p.id
    JOIN seed_tenants tn ON tn.t = p.t
    JOIN seed_lines l ON l.t = p.t AND l.product = p.product
    CROSS JOIN LATERAL (SELECT
        CASE WHEN l.line_no > 1 THEN 0 WHEN p.split OR sc.delivery = 'partial' THEN l.quantity / 2 ELSE l.quantity END AS first_qty,
        tn.grant_prefix || ':' || p.id || ':' || l.sku || ':' AS grant_key) q
    CROSS JOIN LATERAL (VALUES
      (1, q.first_qty,
        e.begin_at + ${micros(`${u("p.i", "60 + l.line_no * 3")} * 0.5 * ${us(`coalesce(e.begin_next_at, least(e.begin_at + interval '1 minute', $now::timestamptz))`, "e.begin_at")}`)},
        tn.delivery_actor, tn.delivery_source, NULL, q.grant_key || '1'),
      (2, CASE WHEN sc.delivery = 'full' THEN l.quantity - q.first_qty ELSE 0 END,
        e.confirm_at - ${micros(`${u("p.i", "61 + l.line_no * 3")} * 0.5 * ${us("e.confirm_at", "e.confirm_prev_at")}`)},
        CASE WHEN p.repaired THEN 'staff:ops@example.com' ELSE tn.delivery_actor END,
        CASE WHEN p.repaired THEN 'console' ELSE tn.delivery_source END,
        CASE WHEN p.repaired THEN 'repair delivery: granted by hand after the grant endpoint outage' END,
        CASE WHEN p.repaired THEN 'repair:' || p.id || ':' || l.sku ELSE q.grant_key || '2' END),
      (3, CASE WHEN sc.final_state = 'refunded' THEN -(CASE WHEN sc.delivery = 'full' THEN l.quantity ELSE q.first_qty END) ELSE 0 END,
        e.refund_at, e.refund_actor, e.refund_source, l.disposition || ': ' || coalesce(e.refund_reason, 'refund confirmed'),
        'refund:' || e.refund_key)
    ) AS g(batch, quantity, at, actor, source, reason, grant_id)
    WHERE g.quantity <> 0
    ORDER BY p.id, l.line_no, g.batch`;

  // 5. Exceptions: money or facts the ledger refused, as transit() and the coordinator file them.
  const txn = (at: string, suffix: string): string =>
    `p.channel || '-' || ${local(at, "YYYYMMDDHH24MISS")} || lpad(p.id::text, 10, '0') || '${suffix}'`;
  const exceptions = `
    INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, detail, status, created_at,
      resolved_at, resolved_by)
    SELECT x.tenant_id, x.id, x.kind, x.event, x.biz_key, x.amount, x.actor, x.detail,
      CASE WHEN x.resolved THEN 'resolved' ELSE 'open' END, x.at,
      CASE WHEN x.resolved THEN x.at + ($now::timestamptz - x.at) * (0.2 + 0.6 * ${u("x.i", 79)}) END,
      CASE WHEN x.resolved THEN 'staff:ops@example.com' END
    FROM (
      SELECT y.*, y.resolvable AND y.at < $now::timestamptz - interval '1 day' AND ${u("y.i", 78)} < 0.6 AS resolved
      FROM (
        SELECT p.i, p.id, p.tenant_id, 'amount-mismatch' AS kind, 'pay' AS event, ${txn("a.at", "-2")} AS biz_key,
          p.amount - 100 AS amount, 'channel:' || p.channel AS actor, a.at, e.pay_at IS NOT NULL AS resolvable,
          jsonb_build_object('guard', 'amount-matches', 'reason', 'paid ' || (p.amount - 100) || ' but the order amount is ' || p.amount,
            'state', 'created', 'version', 0, 'source', 'callback') AS detail
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario LEFT JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT p.created_at + ${micros(`${u("p.i", 71)} * 0.9 * ${us("coalesce(e.pay_at, $now::timestamptz)", "p.created_at")}`)} AS at) a
        WHERE (sc.code = 'created-stuck' AND (p.showcase OR ${u("p.i", 70)} < 0.3))
           OR (e.pay_at IS NOT NULL AND ((p.showcase AND sc.code = 'paid-stuck') OR ${u("p.i", 70)} < 0.01))
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'payment-after-close', 'pay', ${txn("a.at", "")}, p.amount, 'channel:' || p.channel, a.at, true,
          jsonb_build_object('reason', ${lit(refusal("closed", "pay"))}, 'terminal', true, 'state', 'closed', 'version', 1, 'source', 'callback')
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT e.close_at + ${micros(`${u("p.i", 73)} * 0.3 * ${us("$now::timestamptz", "e.close_at")}`)} AS at) a
        WHERE sc.close_via = 'job' AND (p.showcase OR ${u("p.i", 72)} < 0.08)
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'second-payment', 'pay', ${txn("a.at", "-2")}, p.amount, 'channel:' || p.channel, a.at, true,
          jsonb_build_object('reason', ${lit(refusal("paid", "pay"))}, 'terminal', false, 'state', 'paid', 'version', 1, 'source', 'callback')
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT e.pay_at + ${micros(`${u("p.i", 75)} * ${us(`coalesce(e.pay_next_at, least(e.pay_at + interval '1 minute', $now::timestamptz))`, "e.pay_at")}`)} AS at) a
        WHERE e.pay_at IS NOT NULL AND ((p.showcase AND sc.code = 'delivered') OR ${u("p.i", 74)} < 0.01)
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'payment-after-refund', 'pay', ${txn("a.at", "-2")}, p.amount, 'channel:' || p.channel, a.at, true,
          jsonb_build_object('reason', ${lit(refusal("refunded", "pay"))}, 'terminal', true, 'state', 'refunded', 'version', sc.steps,
            'source', 'callback')
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario
        CROSS JOIN LATERAL (SELECT p.end_at + ${micros(`${u("p.i", 77)} * 0.3 * ${us("$now::timestamptz", "p.end_at")}`)} AS at) a
        WHERE sc.final_state = 'refunded' AND (p.showcase OR ${u("p.i", 76)} < 0.03)
        UNION ALL
        SELECT p.i, p.id, p.tenant_id,
          CASE WHEN tn.delivery_source = 'job' THEN 'delivery-failed' ELSE 'delivery-incomplete' END,
          CASE WHEN tn.delivery_source = 'job' THEN NULL ELSE 'confirm-delivery' END,
          CASE WHEN tn.delivery_source = 'job' THEN tn.grant_prefix || ':' || p.id || ':' || pr.pending_sku
               ELSE coalesce(tn.delivery_key_prefix || p.id, 'delivery') END,
          NULL, tn.delivery_actor, a.at, false,
          CASE WHEN tn.delivery_source = 'job'
            THEN jsonb_build_object('sku', pr.pending_sku, 'error', 'grant endpoint answered 503 Service Unavailable',
              'attempts', 1 + floor(${u("p.i", 82)} * 8)::int, 'state', 'delivering', 'version', sc.steps)
            ELSE jsonb_build_object('guard', 'nothing-pending', 'reason', 'lines still pending: ' || pr.pending_text,
              'state', 'delivering', 'version', sc.steps, 'source', tn.delivery_source) END
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_tenants tn ON tn.t = p.t
        JOIN seed_products pr ON pr.t = p.t AND pr.product = p.product
        CROSS JOIN LATERAL (SELECT p.end_at + ${micros(`(0.5 + 0.5 * ${u("p.i", 81)}) * ${us("$now::timestamptz", "p.end_at")}`)} AS at) a
        WHERE sc.final_state = 'delivering' AND (p.showcase OR ${u("p.i", 80)} < 0.5)
      ) y
    ) x
    ORDER BY x.id, x.kind`;

  return {
    plan,
    inserts: [
      [null, steps],
      [null, ev],
      ["orders", orders],
      ["order_lines", lines],
      ["order_transitions", transitions],
      ["grants", grants],
      ["order_exceptions", exceptions],
    ],
  };
}

/** Numbers the named parameters a statement uses ($from, $to, $now), in order of first use. */
function bind(sql: string, values: Readonly<Record<"from" | "to" | "now", unknown>>): { text: string; values: unknown[] } {
  const used: (keyof typeof values)[] = [];
  const text = sql.replace(/\$(from|to|now)\b/g, (_, name: keyof typeof values) => {
    if (!used.includes(name)) used.push(name);
    return `$${used.indexOf(name) + 1}`;
  });
  return { text, values: used.map((name) => values[name]) };
}

function lit(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

// 3. Large data: the console's lookups, queues and audit pages on 1,000,000 orders and over
// 5,000,000 transitions, loaded with the bulk seeder (lib/seed/demo/seed-demo.ts, dense histories).
//
// Seeding a million orders takes minutes, so the database (orderops_bench_large) is kept after the
// run and reused by the next one when it matches: same order count, seed and history profile, and
// migrations that are still the same files (new migrations are applied to it, then ANALYZE). What
// it holds is written in its COMMENT when seeding finished, so a half-seeded database never
// matches. --reseed seeds again; --drop-large drops it at the end.
//
// Server time per call: the statements the app's query function sent (captured with their
// parameters), each run again under EXPLAIN (ANALYZE, TIMING OFF) — planning plus execution time,
// summed over the call's statements (a few run in parallel on the pool; the sum is the worse
// figure). The call's own wall time, client side, is reported beside it.
import pg from "pg";
import { readMigrations } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { migrate } from "@/lib/db/migrate";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { seedDemoStaff } from "@/lib/seed/staff";
import { captureStatements, judgePlan, serverTime } from "./lib/capture";
import { seedOutboxMessages } from "./lib/outbox-messages";
import { createMigratedDatabase, DATABASE_PREFIX, databaseExists, dropDatabase, quoteIdent, urlFor, withAdmin } from "./lib/db";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench, type BenchContext } from "./lib/runner";
import { count, ms, summarize } from "./lib/stats";
import { CONSOLE_QUERIES, sampleInputs } from "./queries";

export const LARGE_DATABASE = `${DATABASE_PREFIX}large`;
const SEED = 1;
const HISTORY = "dense";
const TARGET_MS = 50;
const TARGET_ORDERS = 1_000_000;
const TARGET_TRANSITIONS = 5_000_000;
const BUDGET_MS = 30_000;

interface SeedMeta {
  readonly orders: number;
  readonly seed: number;
  readonly history: string;
  /** name:checksum of every migration applied when it was seeded (or since). */
  readonly migrations: readonly string[];
  readonly seededAt: string;
  readonly seedSeconds: number;
}

async function readMeta(): Promise<SeedMeta | null> {
  if (!(await databaseExists(LARGE_DATABASE))) return null;
  const comment = await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ c: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1`,
      [LARGE_DATABASE],
    );
    return rows[0]?.c ?? null;
  });
  try {
    return comment ? (JSON.parse(comment) as SeedMeta) : null;
  } catch {
    return null;
  }
}

async function writeMeta(meta: SeedMeta): Promise<void> {
  const text = JSON.stringify(meta).replaceAll("'", "''");
  await withAdmin((admin) => admin.query(`COMMENT ON DATABASE ${quoteIdent(LARGE_DATABASE)} IS '${text}'`));
}

/** Outbox messages in the large database: the deliveries page's query at 1,000,000 messages (issue 27). */
const MESSAGES = 1_000_000;

/** The large database, seeded or reused, with its outbox messages; says which in the returned notes. */
async function prepare(ctx: BenchContext): Promise<{ notes: string[] }> {
  const { notes } = await prepareOrders(ctx);
  const started = performance.now();
  const added = await seedOutboxMessages(getPool(), MESSAGES);
  if (added > 0) {
    ctx.log(`added ${count(added)} outbox messages`);
    notes.push(`Added ${count(added)} outbox messages (bench/lib/outbox-messages.ts: 90% delivered, 5% dead, 3% retrying, 2% not sent) in ${Math.round((performance.now() - started) / 1000)} s, plus VACUUM ANALYZE.`);
  }
  return { notes };
}

async function prepareOrders({ args, log }: BenchContext): Promise<{ notes: string[] }> {
  const current = (await readMigrations()).map((m) => `${m.name}:${m.checksum}`);
  const meta = args.reseed ? null : await readMeta();
  const reusable =
    meta !== null &&
    meta.orders === args.orders &&
    meta.seed === SEED &&
    meta.history === HISTORY &&
    meta.migrations.every((m) => current.includes(m));
  const url = urlFor(LARGE_DATABASE);

  if (reusable) {
    const pending = current.filter((m) => !meta.migrations.includes(m));
    const notes = [
      `Reused the database seeded ${meta.seededAt.replace("T", " ").slice(0, 16)} UTC (seeding took ${Math.round(meta.seedSeconds)} s then; \`--reseed\` seeds again).`,
    ];
    if (pending.length > 0) {
      log(`applying ${pending.length} new migration(s) to the reused database`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migrate(client);
        await client.query("ANALYZE");
      } finally {
        await client.end();
      }
      await writeMeta({ ...meta, migrations: current });
      notes.push(`Applied the migrations added since: ${pending.map((m) => m.split(":")[0]).join(", ")} (then ANALYZE).`);
    }
    process.env.DATABASE_URL = url;
    return { notes };
  }

  log(`seeding ${count(args.orders)} orders (dense histories) into ${LARGE_DATABASE}: this takes minutes`);
  await createMigratedDatabase(LARGE_DATABASE);
  process.env.DATABASE_URL = url;
  const started = performance.now();
  let shown = 0;
  const report = await seedDemo(getPool(), {
    orders: args.orders,
    seed: SEED,
    history: HISTORY,
    onProgress: (done, total) => {
      const step = Math.floor((done / total) * 10);
      if (step > shown) {
        shown = step;
        log(`seeded ${count(done)} of ${count(total)} orders`);
      }
    },
  });
  await seedDemoStaff(getPool());
  // As autovacuum would have by the time a table this size is queried: statistics and the
  // visibility map (index-only scans).
  log("VACUUM ANALYZE");
  await getPool().query(`VACUUM ANALYZE orders, order_lines, order_transitions, grants, order_exceptions`);
  const seedSeconds = (performance.now() - started) / 1000;
  await writeMeta({ orders: args.orders, seed: SEED, history: HISTORY, migrations: current, seededAt: new Date().toISOString(), seedSeconds });
  return {
    notes: [
      `Seeded this run with seedDemo (${count(report.rows.orders)} orders, ${count(report.rows.order_transitions)} transitions, seed ${SEED}, dense histories) in ${Math.round(report.elapsedMs / 1000)} s, plus VACUUM ANALYZE: ${Math.round(seedSeconds)} s in all. Kept as ${LARGE_DATABASE} for the next run.`,
    ],
  };
}

export const largeDataBench: Bench = {
  name: "large-data",
  title: "3. Large data: console queries on 1,000,000 orders",
  async run(ctx) {
    const { args, log } = ctx;
    const samples = args.quick ? 20 : 50;
    const previousUrl = process.env.DATABASE_URL;
    await closePool();
    try {
      const { notes } = await prepare(ctx);
      const pool = getPool();
      const { rows } = await pool.query<{ orders: number; transitions: number; size: string }>(
        `SELECT (SELECT count(*) FROM orders)::bigint AS orders, (SELECT count(*) FROM order_transitions)::bigint AS transitions,
                pg_size_pretty(pg_database_size(current_database())) AS size`,
      );
      const size = rows[0]!;
      const messages = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM outbox_messages`)).rows[0]!.n);
      log(`${count(size.orders)} orders, ${count(size.transitions)} transitions, ${count(messages)} outbox messages (${size.size})`);
      const inputs = await sampleInputs(pool, samples);

      const metrics: Metric[] = [
        {
          name: "data: orders / transitions",
          value: `${count(size.orders)} / ${count(size.transitions)} (${size.size})`,
          target: `≥ ${count(TARGET_ORDERS)} / ≥ ${count(TARGET_TRANSITIONS)}`,
          met: size.orders >= TARGET_ORDERS && size.transitions >= TARGET_TRANSITIONS,
        },
        { name: "data: outbox messages", value: count(messages), target: `≥ ${count(MESSAGES)}`, met: messages >= MESSAGES },
      ];
      const details: string[] = [];
      for (const query of CONSOLE_QUERIES) {
        // Warm-up: the first calls load the indexes' upper levels into memory.
        for (let n = 0; n < 3; n++) await query.run(inputs, samples + n);
        const server: number[] = [];
        const wall: number[] = [];
        const seqScans = new Set<string>();
        const indexes = new Set<string>();
        // Bounded: a slow query (the context rows) stops after its time budget, with at least 5 samples.
        const budgetEnds = performance.now() + BUDGET_MS;
        for (let n = 0; n < samples && (n < 5 || performance.now() < budgetEnds); n++) {
          const t0 = performance.now();
          const { statements } = await captureStatements(pool, () => query.run(inputs, n));
          wall.push(performance.now() - t0);
          let total = 0;
          for (const statement of statements) {
            const { ms: spent, plan } = await serverTime(pool, statement);
            total += spent;
            if (plan) {
              const verdict = judgePlan(plan);
              verdict.seqScans.forEach((s) => seqScans.add(s));
              verdict.indexes.forEach((i) => indexes.add(i));
            }
          }
          server.push(total);
        }
        const s = summarize(server);
        const w = summarize(wall);
        const plan = seqScans.size > 0 ? `SEQ SCAN (${[...seqScans].join(", ")})` : indexes.size > 0 ? "index" : "no large table";
        log(`${query.key}: server p95 ${ms(s.p95)}, call p95 ${ms(w.p95)}, plan ${plan}`);
        metrics.push({
          name: `${query.title}: server time p95`,
          value: `${ms(s.p95)} (p50 ${ms(s.p50)}; call p95 ${ms(w.p95)}; ${plan}${s.n < samples ? `; ${s.n} samples` : ""})`,
          ...(query.targeted ? { target: `< ${TARGET_MS} ms, index`, met: s.p95 < TARGET_MS && seqScans.size === 0 && indexes.size > 0 } : {}),
        });
        details.push(`${query.key}: ${[...indexes].sort().join(", ") || "no index of orders/order_transitions"}`);
      }
      return {
        metrics,
        notes: [
          ...notes,
          `${samples} samples per query after 3 warm-up calls, each with other real inputs (random orders, their payment transaction ids, random deep audit positions); scope: both demo products (a manager's view). Server time = EXPLAIN (ANALYZE, TIMING OFF) planning + execution of the statements the call sent, summed; call = the app function's wall time in this process.`,
          `Indexes the plans read: ${details.join("; ")}.`,
          "The last three rows have no target in the issue; they are the other console reads on the same data, for context.",
        ],
      };
    } finally {
      await closePool();
      if (previousUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previousUrl;
      if (args.dropLarge) await dropDatabase(LARGE_DATABASE);
    }
  },
};

if (isMain(import.meta.url)) await runAlone(largeDataBench);

import pg from "pg";
import { logger } from "@/lib/log";

// One pg pool per process, shared by Prisma (through its driver adapter) and by the raw-SQL hot
// paths (transit, grant, the relay), so both count against the same connection budget.

// COUNT(*), SUM() and ids arrive as int8. Every value we keep fits in 2^53, so read them as numbers
// rather than strings; ids that really outgrow that would fail loudly here instead of silently.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
});

const globalForPool = globalThis as unknown as { orderOpsPool?: pg.Pool };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start and the CLI set it for the embedded database)");
  return url;
}

/** The pool is made on first use, so tests and the CLI can choose the database before that. */
export function getPool(): pg.Pool {
  if (!globalForPool.orderOpsPool) {
    const pool = new pg.Pool({
      connectionString: databaseUrl(),
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      application_name: process.env.ORDEROPS_SERVICE ?? "orderops",
    });
    // When the server ends an idle connection (a restart, pg_terminate_backend, DROP DATABASE …
    // FORCE), pg-pool drops that client and emits "error" on the pool. Unheard, that event is an
    // uncaught exception that takes the whole process down; the next checkout simply reconnects.
    pool.on("error", (error) => logger.warn(lostConnection(error), "idle database connection closed by the server"));
    // The same event on a connection that is checked out (a transaction, a worker's claim) is
    // emitted on the client, where pg-pool listens only while it is idle. The statement in flight,
    // or the next one, fails with it and its caller logs and handles that (lib/db/unavailable.ts);
    // this only keeps the event from being fatal.
    pool.on("connect", (client) => {
      client.on("error", (error) => logger.debug(lostConnection(error), "database connection closed by the server"));
    });
    globalForPool.orderOpsPool = pool;
  }
  return globalForPool.orderOpsPool;
}

/** The log fields of a lost connection: not the error itself, which pg-pool hangs the whole client on. */
function lostConnection(error: Error): { code: unknown; reason: string } {
  return { code: (error as { code?: unknown }).code, reason: error.message };
}

export async function closePool(): Promise<void> {
  const pool = globalForPool.orderOpsPool;
  globalForPool.orderOpsPool = undefined;
  await pool?.end();
}

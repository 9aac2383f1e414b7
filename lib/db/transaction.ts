import type pg from "pg";
import { getPool } from "./pool";
import { withPrismaOn, type PrismaTx } from "./prisma";
import { retry, type RetryOptions } from "./retry";

// The one way to run a transaction. BEGIN, COMMIT and ROLLBACK are written here and in the
// migration runner, nowhere else.
//
// READ COMMITTED, deliberately: after `SELECT … FOR UPDATE` the next statement must see the rows a
// concurrent twin committed while we waited for the lock (DESIGN.md, transit step 1).

/** A transaction in progress: raw SQL on its connection (lib/db/sql.ts decodes the rows). */
export interface Tx {
  readonly client: pg.PoolClient;
}

/** A transaction in progress with Prisma on the same connection. */
export interface PrismaTransaction extends Tx {
  readonly prisma: PrismaTx;
}

export interface TransactionOptions {
  /** Default: the process's pool. */
  readonly pool?: pg.Pool;
  /** Run on this already checked-out connection instead (the seeder's dedicated connections). */
  readonly client?: pg.PoolClient;
  /** Run the whole transaction again after a concurrent change (lib/db/retry.ts). */
  readonly retry?: RetryOptions;
  /** Statements to run first, e.g. `SET LOCAL synchronous_commit = off`. */
  readonly setLocal?: readonly string[];
}

export function transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
export function transaction<T>(work: (tx: PrismaTransaction) => Promise<T>, options: TransactionOptions & { readonly prisma: true }): Promise<T>;
export function transaction<T>(
  work: ((tx: Tx) => Promise<T>) | ((tx: PrismaTransaction) => Promise<T>),
  options: TransactionOptions & { readonly prisma?: boolean } = {},
): Promise<T> {
  const once = () => runOnce(work as (tx: Tx | PrismaTransaction) => Promise<T>, options);
  return options.retry ? retry(once, options.retry) : once();
}

async function runOnce<T>(work: (tx: Tx | PrismaTransaction) => Promise<T>, options: TransactionOptions & { readonly prisma?: boolean }): Promise<T> {
  const client = options.client ?? (await (options.pool ?? getPool()).connect());
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    for (const statement of options.setLocal ?? []) await client.query(statement);
    const result = options.prisma ? await withPrismaOn(client, (prisma) => work({ client, prisma })) : await work({ client });
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      // The connection itself is gone: the server rolled back already; do not pool it again.
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    if (!options.client) client.release(broken);
  }
}

/**
 * A read in one snapshot: every statement of `work` sees the database as of its first one, so a
 * page's read model never mixes an order before a change with its timeline after it. Read only:
 * a stray write fails instead of committing.
 */
export function snapshot<T>(work: (tx: PrismaTransaction) => Promise<T>, options: Pick<TransactionOptions, "pool"> = {}): Promise<T> {
  return transaction(work, { ...options, prisma: true, setLocal: ["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"] });
}

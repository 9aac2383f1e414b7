import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { getPool } from "./pool";

// Prisma 7 over the process's one pg pool (through @prisma/adapter-pg), for the plain reads and
// writes: staff, API keys, settings, approvals, bulk batches, audit rows, simple lookups.

/** Prisma as it runs inside one of our transactions (lib/db/transaction.ts). */
export type PrismaTx = Prisma.TransactionClient;

const globalForPrisma = globalThis as unknown as {
  orderOpsPrisma?: PrismaClient;
  orderOpsBoundPrisma?: PrismaClient;
  orderOpsBinding?: AsyncLocalStorage<pg.PoolClient>;
};

/** Prisma outside any transaction: each call is its own statement (or Prisma's own transaction). */
export function getPrisma(): PrismaClient {
  globalForPrisma.orderOpsPrisma ??= new PrismaClient({ adapter: new PrismaPg(getPool()) });
  return globalForPrisma.orderOpsPrisma;
}

export async function disconnectPrisma(): Promise<void> {
  const clients = [globalForPrisma.orderOpsPrisma, globalForPrisma.orderOpsBoundPrisma];
  globalForPrisma.orderOpsPrisma = undefined;
  globalForPrisma.orderOpsBoundPrisma = undefined;
  await Promise.all(clients.map((c) => c?.$disconnect()));
}

// ---------------------------------------------------------------------------------------------
// Prisma inside our transaction. transaction() opens the transaction on a pg connection (so raw
// statements and Prisma calls share it); Prisma is then handed that same connection for its own
// interactive transaction. A second Prisma client's pool lends out exactly the connection of the
// transaction being bound, and swallows the BEGIN/COMMIT/ROLLBACK Prisma sends: the transaction is
// ours, and transaction() alone commits or rolls it back.

// On globalThis like the clients: Next bundles server code more than once (pages, actions, routes),
// and the bound client made by one copy of this module must read the binding set by another.
const binding = (globalForPrisma.orderOpsBinding ??= new AsyncLocalStorage<pg.PoolClient>());
const OWN_STATEMENTS = new Set(["BEGIN", "COMMIT", "ROLLBACK"]);
const NOTHING: Pick<pg.QueryResult, "rows" | "fields" | "rowCount"> = { rows: [], fields: [], rowCount: 0 };

function lendBoundConnection(): pg.PoolClient {
  const client = binding.getStore();
  if (!client) throw new Error("Prisma's transaction client was asked for a connection outside transaction()");
  const lent = {
    query(config: pg.QueryConfig) {
      return OWN_STATEMENTS.has(config.text) ? Promise.resolve(NOTHING) : client.query(config);
    },
    on: () => lent,
    removeListener: () => lent,
    release: () => undefined,
  };
  return lent as unknown as pg.PoolClient;
}

function boundPrisma(): PrismaClient {
  if (!globalForPrisma.orderOpsBoundPrisma) {
    // Never connects by itself: `connect` lends the bound connection, and plain queries (outside
    // $transaction) are a bug here.
    const lender = new pg.Pool({ max: 1 });
    lender.connect = (async () => lendBoundConnection()) as unknown as pg.Pool["connect"];
    lender.query = (() => {
      throw new Error("the bound Prisma client runs only inside transaction()");
    }) as unknown as pg.Pool["query"];
    globalForPrisma.orderOpsBoundPrisma = new PrismaClient({ adapter: new PrismaPg(lender) });
  }
  return globalForPrisma.orderOpsBoundPrisma;
}

/** Runs `work` with a Prisma client whose every statement goes to `client`, inside its transaction. */
export function withPrismaOn<T>(client: pg.PoolClient, work: (prisma: PrismaTx) => Promise<T>): Promise<T> {
  // Prisma's own limits are for transactions it opens; ours may be a bulk chunk or a slow grant call.
  return binding.run(client, () => boundPrisma().$transaction(work, { maxWait: 60_000, timeout: 60 * 60_000 }));
}

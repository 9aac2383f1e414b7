import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { closePool } from "../db/pool";
import { disconnectPrisma } from "../db/prisma";
import { quoteIdent, urlFor, withAdmin } from "./server";

/**
 * Gives the calling test file a fresh, migrated database of its own and points DATABASE_URL (and so
 * the lazily made pool and Prisma client) at it. Call at the top of an integration test file.
 */
export function useFreshDatabase(): void {
  const name = `${inject("databasePrefix")}${randomBytes(6).toString("hex")}`;
  beforeAll(async () => {
    const template = inject("templateDatabase");
    await withAdmin((admin) => admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`));
    process.env.DATABASE_URL = urlFor(name);
    // Race tests hold up to a few hundred transactions at once; give them room to queue on.
    process.env.DATABASE_POOL_SIZE ??= "20";
  });
  afterAll(async () => {
    await disconnectPrisma();
    await closePool();
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  });
}

import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";

// Applies prisma/migrations/*/migration.sql in name order and records each in _prisma_migrations
// exactly as `prisma migrate deploy` does (same table, same sha256 checksum), so anyone who has
// Prisma's schema engine can still run `prisma migrate status` against our databases.

const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
// The advisory lock key Prisma's own migrate uses: two runners (or a runner and Prisma) serialize.
const ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                  VARCHAR(36)  PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64)  NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ  NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER      NOT NULL DEFAULT 0
)`;

export interface Migration {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export interface MigrateReport {
  readonly applied: string[];
  readonly alreadyApplied: number;
}

/**
 * Idempotent: applied migrations are skipped. A landed migration whose file changed since is an
 * error (migrations are never edited after landing), as is one that failed half-way before.
 */
export async function migrate(client: pg.ClientBase, dir = MIGRATIONS_DIR): Promise<MigrateReport> {
  const migrations = await readMigrations(dir);
  await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK]);
  try {
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        if (!previous.finished_at) throw new Error(`migration ${migration.name} failed earlier; fix the database by hand`);
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was edited after it was applied; add a new migration instead`);
        }
        continue;
      }
      await applyOne(client, migration);
      applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK]);
  }
}

async function applyOne(client: pg.ClientBase, migration: Migration): Promise<void> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}

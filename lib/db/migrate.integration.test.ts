import { cp, mkdtemp, appendFile, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "@/lib/test/database";
import { migrate, readMigrations } from "./migrate";
import { getPool } from "./pool";

useFreshDatabase();

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "orderops-migrations-"));
  await cp(path.join(process.cwd(), "prisma", "migrations"), dir, { recursive: true });
  return dir;
}

async function withClient<T>(work: (client: import("pg").PoolClient) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

describe("migration runner", () => {
  it("records each migration as Prisma does and applies nothing the second time", async () => {
    const migrations = await readMigrations();
    const { rows } = await getPool().query(
      `SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows).toEqual(migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum, applied_steps_count: 1, finished: true })));

    const again = await withClient((c) => migrate(c));

    expect(again).toEqual({ applied: [], alreadyApplied: migrations.length });
  });

  it("applies a new migration once, in name order", async () => {
    const dir = await copyOfMigrations();
    await mkdir(path.join(dir, "29991231000000_probe"));
    await writeFile(path.join(dir, "29991231000000_probe", "migration.sql"), `CREATE TABLE "probe" ("id" INTEGER);`);

    const first = await withClient((c) => migrate(c, dir));
    const second = await withClient((c) => migrate(c, dir));

    expect(first.applied).toEqual(["29991231000000_probe"]);
    expect(second.applied).toEqual([]);
    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM probe`);
    expect(rows[0].n).toBe(0);
  });

  it("refuses a migration that was edited after it was applied", async () => {
    const dir = await copyOfMigrations();
    const [first] = await readMigrations(dir);
    await appendFile(path.join(dir, first!.name, "migration.sql"), "\n-- edited\n");

    await expect(withClient((c) => migrate(c, dir))).rejects.toThrow(/was edited after it was applied/);
  });

  it("rolls back a failing migration entirely and records nothing for it", async () => {
    const dir = await copyOfMigrations();
    await mkdir(path.join(dir, "29991231000001_broken"));
    await writeFile(path.join(dir, "29991231000001_broken", "migration.sql"), `CREATE TABLE "half" ("id" INTEGER); SELECT 1/0;`);

    await expect(withClient((c) => migrate(c, dir))).rejects.toThrow(/29991231000001_broken failed: division by zero/);

    const { rows } = await getPool().query(
      `SELECT to_regclass('half') IS NULL AS gone, (SELECT count(*)::int FROM _prisma_migrations WHERE migration_name = '29991231000001_broken') AS recorded`,
    );
    expect(rows[0]).toEqual({ gone: true, recorded: 0 });
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useFreshDatabase } from "@/lib/test/database";
import { getPool } from "./pool";
import { getPrisma } from "./prisma";
import { ConcurrentChange } from "./retry";
import { one, rows, RowShapeError } from "./sql";
import { snapshot, transaction } from "./transaction";

useFreshDatabase();

const count = z.object({ n: z.number() });
const tenantCount = (id: string) => one(getPool(), count, `SELECT count(*)::int AS n FROM tenants WHERE id = $1`, [id]);

describe("transaction()", () => {
  it("commits raw SQL and Prisma writes together, on one connection", async () => {
    const pids = await transaction(
      async ({ client, prisma }) => {
        await client.query(`INSERT INTO tenants (id, name, currency) VALUES ('tx-raw', 'Raw', 'CNY')`);
        // Prisma sees the raw row (same transaction) and writes beside it.
        const raw = await prisma.tenant.findUniqueOrThrow({ where: { id: "tx-raw" } });
        await prisma.tenant.create({ data: { id: "tx-prisma", name: `${raw.name} too`, currency: "CNY" } });
        const [fromRaw] = await rows(client, z.object({ pid: z.number() }), `SELECT pg_backend_pid() AS pid`);
        const [fromPrisma] = await prisma.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        return [fromRaw!.pid, Number(fromPrisma!.pid)];
      },
      { prisma: true },
    );
    expect(pids[0]).toBe(pids[1]);
    expect(await tenantCount("tx-raw")).toEqual({ n: 1 });
    expect(await tenantCount("tx-prisma")).toEqual({ n: 1 });
  });

  // lib/db/prisma.ts lends Prisma's adapter (@prisma/adapter-pg, pinned exactly) our connection and
  // swallows the BEGIN and COMMIT it sends as query configs. If the adapter ever sends them another
  // way, Prisma would commit our transaction half-way: this is the test that says so.
  it("keeps our transaction open through Prisma's: its BEGIN and COMMIT never reach the connection", async () => {
    await transaction(
      async ({ client, prisma }) => {
        await prisma.tenant.create({ data: { id: "tx-open", name: "Open", currency: "CNY" } });
        // A savepoint exists only inside a transaction block: Prisma's COMMIT did not end ours.
        await client.query("SAVEPOINT still_ours");
        await client.query("RELEASE SAVEPOINT still_ours");
      },
      { prisma: true },
    );
    expect(await tenantCount("tx-open")).toEqual({ n: 1 });
  });

  it("rolls back both when the work throws, and the Prisma write is invisible outside until then", async () => {
    const failure = transaction(
      async ({ client, prisma }) => {
        await prisma.tenant.create({ data: { id: "tx-gone", name: "Gone", currency: "CNY" } });
        expect(await getPrisma().tenant.count({ where: { id: "tx-gone" } })).toBe(0);
        await client.query(`INSERT INTO tenants (id, name, currency) VALUES ('tx-gone-too', 'Gone', 'CNY')`);
        throw new Error("changed my mind");
      },
      { prisma: true },
    );
    await expect(failure).rejects.toThrow("changed my mind");
    expect(await tenantCount("tx-gone")).toEqual({ n: 0 });
    expect(await tenantCount("tx-gone-too")).toEqual({ n: 0 });
  });

  it("runs the whole transaction again after a concurrent change, up to the limit", async () => {
    let attempts = 0;
    const value = await transaction(
      async ({ client }) => {
        attempts++;
        await client.query(`INSERT INTO tenants (id, name, currency) VALUES ('tx-retry-${attempts}', 'R', 'CNY')`);
        if (attempts < 3) throw new ConcurrentChange("test");
        return attempts;
      },
      { retry: { label: "test" } },
    );
    expect(value).toBe(3);
    // The failed attempts' writes rolled back with them.
    expect(await one(getPool(), count, `SELECT count(*)::int AS n FROM tenants WHERE id LIKE 'tx-retry-%'`)).toEqual({ n: 1 });

    let forever = 0;
    await expect(transaction(async () => (forever++, Promise.reject(new ConcurrentChange("test"))), { retry: { label: "test", attempts: 4 } })).rejects.toThrow(
      ConcurrentChange,
    );
    expect(forever).toBe(4);
  });

  it("never retries a unique violation unless asked to", async () => {
    let attempts = 0;
    const insert = () =>
      transaction(async ({ client }) => {
        attempts++;
        await client.query(`INSERT INTO tenants (id, name, currency) VALUES ('tx-unique', 'U', 'CNY')`);
      }, { retry: { label: "test" } });
    await insert();
    await expect(insert()).rejects.toMatchObject({ code: "23505" });
    expect(attempts).toBe(2);
  });

  it("hands the pool back a connection whose server process died, instead of reusing it", async () => {
    const pool = getPool();
    const failure = transaction(async ({ client }) => {
      await client.query("SELECT pg_terminate_backend(pg_backend_pid())").catch(() => undefined);
      throw new Error("lost the connection");
    });
    await expect(failure).rejects.toThrow("lost the connection");
    expect(await tenantCount("nobody")).toEqual({ n: 0 });
    expect(pool.totalCount).toBeLessThanOrEqual(1);
  });
});

describe("snapshot()", () => {
  it("sees the database as of its first statement, through raw SQL and Prisma, and writes nothing", async () => {
    const pool = getPool();
    await pool.query(`INSERT INTO tenants (id, name, currency) VALUES ('snap', 'Before', 'CNY')`);
    const seen = await snapshot(async ({ client, prisma }) => {
      const before = await one(client, z.object({ name: z.string() }), `SELECT name FROM tenants WHERE id = 'snap'`);
      // Committed by another connection between the snapshot's statements.
      await pool.query(`UPDATE tenants SET name = 'After' WHERE id = 'snap'`);
      const after = await prisma.tenant.findUniqueOrThrow({ where: { id: "snap" }, select: { name: true } });
      const write = await client.query(`UPDATE tenants SET name = 'Mine' WHERE id = 'snap'`).then(
        () => "written",
        (error: Error) => error.message,
      );
      return { before: before.name, after: after.name, write };
    }).catch((error: Error) => ({ failed: error.message }));
    expect(seen).toEqual({ before: "Before", after: "Before", write: expect.stringContaining("read-only transaction") });
    expect(await one(pool, z.object({ name: z.string() }), `SELECT name FROM tenants WHERE id = 'snap'`)).toEqual({ name: "After" });
  });
});

describe("decoded rows", () => {
  it("names the statement and the field when a row does not match its schema", async () => {
    await expect(rows(getPool(), z.object({ orderNo: z.string() }), `SELECT 'x' AS order_no`)).rejects.toThrow(RowShapeError);
    await expect(rows(getPool(), z.object({ orderNo: z.string() }), `SELECT 'x' AS order_no`)).rejects.toThrow(/orderNo/);
  });
});

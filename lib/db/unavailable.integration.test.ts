import net from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useFreshDatabase } from "@/lib/test/database";
import { withAdmin } from "@/lib/test/server";
import { getPool } from "./pool";
import { getPrisma } from "./prisma";
import { ConcurrentChange } from "./retry";
import { isDatabaseUnavailable } from "./unavailable";

// Each error below is produced for real — a refused connection, a backend ended mid-statement, a
// client used after its connection broke, a pool checkout that timed out — through pg and through
// Prisma, since that is the shape the edges (routes, actions, the worker) will meet them in.

useFreshDatabase();

let refusedUrl = "";

beforeAll(async () => {
  // A port nothing listens on: what a stopped server looks like.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  refusedUrl = `postgresql://postgres@127.0.0.1:${port}/nowhere`;
});

const refusedPool = () => new pg.Pool({ connectionString: refusedUrl }).on("error", () => undefined);
const refusedPrisma = () => new PrismaClient({ adapter: new PrismaPg(refusedPool()) });
const ownPid = async (client: pg.PoolClient) => (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
const terminate = (pid: number) => withAdmin((admin) => admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]));

/** The error of a statement whose backend the server ends while it runs. */
async function endedMidStatement(): Promise<unknown> {
  const client = await getPool().connect();
  const pid = await ownPid(client);
  const failed = client.query("SELECT pg_sleep(10)").catch((error: unknown) => error);
  await expect.poll(async () => (await getPool().query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid])).rowCount).toBe(1);
  await terminate(pid);
  client.release(true);
  return failed;
}

const prismaClients: PrismaClient[] = [];
afterAll(async () => {
  await Promise.all(prismaClients.map((p) => p.$disconnect()));
});

describe("isDatabaseUnavailable", () => {
  it("recognises pg's errors: refused, ended mid-statement (57P01), a client whose connection broke, a checkout timeout", async () => {
    const refused = await refusedPool().query("SELECT 1").catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "ECONNREFUSED" });

    const ended = await endedMidStatement();
    expect(ended).toMatchObject({ code: "57P01" });

    // A checked-out connection the server ends between statements (a worker's claim connection).
    const client = await getPool().connect();
    const lost = new Promise((resolve) => client.once("error", resolve));
    await terminate(await ownPid(client));
    await lost;
    const broken = await client.query("SELECT 1").catch((e: unknown) => e);
    client.release(true);
    expect(broken).toMatchObject({ message: "Client has encountered a connection error and is not queryable" });

    const tight = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, connectionTimeoutMillis: 100 });
    const holder = await tight.connect();
    const timedOut = await tight.query("SELECT 1").catch((e: unknown) => e);
    holder.release();
    await tight.end();
    expect(timedOut).toMatchObject({ message: "timeout exceeded when trying to connect" });

    for (const error of [refused, ended, broken, timedOut]) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
  });

  it("recognises Prisma's: a model query and a raw query that cannot connect, a raw query ended mid-statement, a transaction whose connection broke", async () => {
    const prisma = refusedPrisma();
    prismaClients.push(prisma);
    const model = await prisma.tenant.findFirst().catch((e: unknown) => e);
    const raw = await prisma.$queryRaw`SELECT 1`.catch((e: unknown) => e);
    expect(model).toMatchObject({ code: "P1001" });
    expect(raw).toMatchObject({ code: "P2010" });

    const sleeping = getPrisma().$queryRaw`SELECT pg_sleep(10)`.catch((e: unknown) => e);
    const sleeper = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%' AND state = 'active'";
    await expect.poll(async () => (await getPool().query(sleeper)).rowCount).toBe(1);
    await getPool().query(`SELECT pg_terminate_backend(pid, 5000) FROM (${sleeper}) x`);
    const endedRaw = await sleeping;
    expect(endedRaw).toMatchObject({ code: "P2010", meta: { driverAdapterError: { cause: { code: "57P01" } } } });

    const inTransaction = await getPrisma()
      .$transaction(async (tx) => {
        const [own] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await terminate(own!.pid);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.$queryRaw`SELECT 1`;
      })
      .catch((e: unknown) => e);
    expect(inTransaction).toMatchObject({ message: "Client has encountered a connection error and is not queryable" });

    for (const error of [model, raw, endedRaw, inTransaction]) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
  });

  it("looks through wrappers: an error's cause, an AggregateError (both address families refused)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new AppError("internal", undefined, { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([new Error("other"), refused]))).toBe(true);
    expect(isDatabaseUnavailable({ code: "08006" })).toBe(true);
    expect(isDatabaseUnavailable({ code: "57P03" })).toBe(true);
  });

  it("is false for everything else: constraint violations, syntax errors, serialization failures, our own errors", async () => {
    const client = await getPool().connect();
    await client.query("CREATE TEMP TABLE t (id int PRIMARY KEY)");
    await client.query("INSERT INTO t VALUES (1)");
    const duplicate = await client.query("INSERT INTO t VALUES (1)").catch((e: unknown) => e);
    const syntax = await client.query("SELEC 1").catch((e: unknown) => e);
    client.release();
    expect(duplicate).toMatchObject({ code: "23505" });
    expect(syntax).toMatchObject({ code: "42601" });
    const prismaUnique = await getPrisma()
      .tenant.create({ data: { id: "dup", name: "a", currency: "CNY" } })
      .then(() => getPrisma().tenant.create({ data: { id: "dup", name: "a", currency: "CNY" } }))
      .catch((e: unknown) => e);
    expect(prismaUnique).toMatchObject({ code: "P2002" });

    for (const error of [duplicate, syntax, prismaUnique, { code: "40001" }, new ConcurrentChange("x"), new AppError("conflict"), new Error("boom"), "text", null, undefined]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

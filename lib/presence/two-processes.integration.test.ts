import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { encode } from "next-auth/jwt";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { one } from "@/lib/db/sql";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import type { OrderLive } from "./order-presence";

// Two web processes on one database, as two nodes behind a balancer are: each serves the presence
// poll with its own pool and its own copy of lib/ (real processes, real HTTP, real session cookies),
// and a colleague polling one is seen by a colleague polling the other. Nothing about presence is
// in a process: when one process is killed (SIGKILL, a node dying), its tab's row simply expires
// and the other process stops showing it.

useFreshDatabase();

const SECRET = "two-processes-test-secret-0123456789abcdef";
const TENANT = "two-procs";
const children = new Set<ChildProcess>();
const bases: string[] = [];
const cookies: Record<"ann" | "bo", string> = { ann: "", bo: "" };

function startProcess(): Promise<{ child: ChildProcess; base: string }> {
  // node itself, not the tsx wrapper: the SIGKILL must hit the process that serves.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/presence/fixtures/console-process.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, NEXTAUTH_SECRET: SECRET, NODE_ENV: "production", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the web process exited (${code}) before it served`)));
    readline.createInterface({ input: child.stdout! }).once("line", (line) => {
      const { port } = JSON.parse(line) as { port: number };
      resolve({ child, base: `http://127.0.0.1:${port}` });
    });
  });
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
  await createOrder(getPool(), { tenantId: TENANT, orderNo: "TP-1" });
  for (const [who, name, role] of [
    ["ann", "Ann Agent", "agent"],
    ["bo", "Bo Ops", "ops"],
  ] as const) {
    const row = await getPrisma().staffUser.create({ data: { email: `${who}@example.com`, name, passwordHash: "x", role, tenantIds: [TENANT] } });
    cookies[who] = `next-auth.session-token=${await encode({ token: { staffId: Number(row.id), tokenVersion: row.tokenVersion }, secret: SECRET })}`;
  }
  // One after the other: two imports of the whole route graph at once only share the machine's cores.
  for (let i = 0; i < 2; i++) bases.push((await startProcess()).base);
}, 180_000);

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

async function poll(base: string, who: "ann" | "bo", tab: string, extra: Record<string, unknown> = {}): Promise<OrderLive> {
  const response = await fetch(`${base}/api/console/orders/${TENANT}/TP-1/presence`, {
    method: "POST",
    headers: { cookie: cookies[who], "content-type": "application/json", "sec-fetch-site": "same-origin" },
    body: JSON.stringify({ tab, since: 0, ...extra }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return superjson.parse<OrderLive>(text);
}

/** The rows of tabs still on an order (a left tab's mark stays until its expiry). */
const rows = () => one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence WHERE left_at IS NULL`).then((r) => r.n);

describe("presence across two web processes", () => {
  it("shows a colleague polling the other process, and forgets them once that process dies and their row expires", { timeout: 60_000 }, async () => {
    const [first, second] = bases as [string, string];
    const annTab = crypto.randomUUID();
    const boTab = crypto.randomUUID();
    expect((await poll(first, "ann", annTab)).present).toEqual([]);
    expect((await poll(second, "bo", boTab)).present).toEqual([{ name: "Ann Agent", role: "agent", since: expect.any(String) }]);
    expect((await poll(first, "ann", annTab)).present).toEqual([{ name: "Bo Ops", role: "ops", since: expect.any(String) }]);
    // Either process answers either person: the rows are the database's, not a process's.
    expect((await poll(second, "ann", annTab)).present.map((p) => p.name)).toEqual(["Bo Ops"]);
    expect((await poll(first, "bo", boTab)).present.map((p) => p.name)).toEqual(["Ann Agent"]);
    expect(await rows()).toBe(2);

    // Bo's node dies mid-shift: no goodbye is ever sent. Until the row's expiry Ann still sees Bo;
    // the expiry is the database's clock (moved forward here rather than waited for).
    const [, dying] = [...children];
    dying!.kill("SIGKILL");
    await new Promise((resolve) => dying!.once("exit", resolve));
    expect((await poll(first, "ann", annTab)).present.map((p) => p.name)).toEqual(["Bo Ops"]);
    await getPool().query(`UPDATE order_presence SET expires_at = now() - interval '1 millisecond' WHERE tab_id = $1`, [boTab]);
    expect((await poll(first, "ann", annTab)).present).toEqual([]);
    // Ann's poll deleted the dead tab's row; only hers is left.
    expect(await rows()).toBe(1);

    // A tab that says it is leaving is gone at once, through whichever process gets the goodbye.
    await poll(first, "ann", annTab, { leaving: true });
    expect(await rows()).toBe(0);
  });
});

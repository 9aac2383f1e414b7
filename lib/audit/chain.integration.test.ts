import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { HASHED_COLUMNS } from "@/lib/orders/write-transitions";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { verifyChains } from "./chain";
import { chainStatus, sealCheckpoint } from "./checkpoint";
import { audit } from "./record";

// The tamper-evident log: every fact joins a chain as it is written, in the same transaction (a
// rolled-back change leaves neither the fact nor a link); `audit verify` recomputes every chain and
// finds an edit made behind the database's back (a superuser with triggers disabled).

useFreshDatabase();

const TENANT = "chain";
const by = { actor: "channel:test", source: "callback" } as const;

async function paidOrder() {
  const order = await createOrder(getPool(), { tenantId: TENANT, amount: 6_00 });
  await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount: 6_00, ...by });
  return order;
}

/** As a superuser with every trigger off (append-only and chaining): what an attacker with the database could do. */
async function behindTheBack(sql: string, values: unknown[]): Promise<void> {
  await transaction(async ({ client }) => {
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(sql, values);
  });
}

const exec = promisify(execFile);
/** `npm run cli -- audit verify` against this test's database, as an operator runs it. */
async function cliVerify(): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await exec(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/main.ts", "audit", "verify"], {
      env: { ...process.env, LOG_LEVEL: "silent" },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

beforeAll(() => ensureTenant(getPool(), tenantSpec(TENANT)));

describe("the audit chains", () => {
  it("link every kind of fact as it is written, per order and per tenant, and verify whole", async () => {
    const order = await paidOrder();
    await grant({ orderId: order.id, sku: "gems-60", quantity: 10, grantId: "g1", reason: "compensation", actor: "staff:ops@example.com", source: "console" });
    await getPrisma().orderNote.create({ data: { tenantId: TENANT, orderId: order.id, author: "staff:agent@example.com", body: "player called" } });
    await audit({ actor: "staff:manager@example.com", action: "approval.requested", tenantId: TENANT, orderId: order.id, detail: { reason: "r" } });
    await audit({ actor: "staff:manager@example.com", action: "settings.updated", tenantId: TENANT });
    await audit({ actor: "anonymous", action: "sign-in.failed", target: "x@example.com" });

    const { rows } = await getPool().query(
      `SELECT log, chain_seq, prev_hash IS NULL AS first FROM (
         SELECT 'transition' AS log, chain_seq, prev_hash FROM order_transitions WHERE order_id = $1
         UNION ALL SELECT 'grant', chain_seq, prev_hash FROM grants WHERE order_id = $1
         UNION ALL SELECT 'note', chain_seq, prev_hash FROM order_notes WHERE order_id = $1
         UNION ALL SELECT 'audit', chain_seq, prev_hash FROM audit_events WHERE order_id = $1) f ORDER BY chain_seq`,
      [order.id],
    );
    expect(rows).toEqual([
      { log: "transition", chain_seq: 1, first: true },
      { log: "grant", chain_seq: 2, first: false },
      { log: "note", chain_seq: 3, first: false },
      { log: "audit", chain_seq: 4, first: false },
    ]);
    expect(await verifyChains()).toMatchObject({ ok: true });
    expect(await verifyChains({ tenant: TENANT })).toMatchObject({ ok: true });
  });

  it("hash every column of a transition transit writes: its write names each one the table has", async () => {
    const { rows } = await getPool().query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = 'order_transitions' AND column_name NOT IN ('chain_seq', 'prev_hash', 'hash')`,
    );
    expect(Object.keys(HASHED_COLUMNS).sort()).toEqual(rows.map((r) => r.column_name).sort());
  });

  it("link transit's transitions in its own write, with the hash the trigger would give, whatever the session's time zone", async () => {
    // transit's write statement links and hashes its transitions itself (the trigger is not called
    // for them) and moves the head on the order's row; in a session whose zone is not UTC it leaves
    // the hash to the trigger. Either way the chain must verify, and every head match its last fact.
    const shanghai = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2, options: "-c TimeZone=Asia/Shanghai" });
    try {
      const utc = await paidOrder();
      const elsewhere = await createOrder(getPool(), { tenantId: TENANT, amount: 6_00 });
      const paid = await transit({ orderId: elsewhere.id, event: "pay", bizKey: `t-${elsewhere.id}`, amount: 6_00, ...by }, shanghai);
      expect(paid.result).toBe("applied");
      for (const order of [utc, elsewhere]) {
        await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", ...by }, order === elsewhere ? shanghai : getPool());
        await grant({ orderId: order.id, sku: "gems-60", quantity: 60, grantId: "g-all", ...by });
      }
      const { rows } = await getPool().query<{ id: number; seq: number; matches: boolean }>(
        `SELECT o.id, o.chain_seq::int AS seq,
                o.chain_hash = (SELECT hash FROM (SELECT chain_seq, hash FROM order_transitions WHERE order_id = o.id
                                                  UNION ALL SELECT chain_seq, hash FROM grants WHERE order_id = o.id) f ORDER BY chain_seq DESC LIMIT 1) AS matches
         FROM orders o WHERE o.id = ANY($1::bigint[]) ORDER BY o.id`,
        [[utc.id, elsewhere.id]],
      );
      expect(rows).toEqual([
        { id: utc.id, seq: 3, matches: true },
        { id: elsewhere.id, seq: 3, matches: true },
      ]);
      expect(await verifyChains({ tenant: TENANT })).toMatchObject({ ok: true });
    } finally {
      await shanghai.end();
    }
  });

  it("a rolled-back change leaves no fact and moves no head; a committed one always has its fact", async () => {
    const order = await paidOrder();
    // An order's chain keeps its head on the order's row.
    const head = async () => {
      const row = await getPrisma().order.findUniqueOrThrow({ where: { id: order.id }, select: { chainSeq: true, chainHash: true } });
      return { seq: row.chainSeq, hash: row.chainHash };
    };
    const before = await head();
    await expect(
      transaction(
        async ({ prisma }) => {
          await audit({ actor: "staff:m", action: "approval.requested", tenantId: TENANT, orderId: order.id }, prisma);
          throw new Error("the change failed");
        },
        { prisma: true },
      ),
    ).rejects.toThrow("the change failed");
    expect(await head()).toEqual(before);
    expect(await getPrisma().auditEvent.count({ where: { orderId: order.id } })).toBe(0);

    await transaction(async ({ prisma }) => audit({ actor: "staff:m", action: "approval.requested", tenantId: TENANT, orderId: order.id }, prisma), { prisma: true });
    expect((await head()).seq).toBe(before.seq + 1n);
    expect(await getPrisma().auditEvent.count({ where: { orderId: order.id } })).toBe(1);
  });

  it("stays one line under concurrent writers: 40 grants racing on one order, 60 audit rows racing on one chain", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT, amount: 6_00, lines: [{ sku: "gems-100", kind: "currency", quantity: 100 }] });
    await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount: 6_00, ...by });
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => grant({ orderId: order.id, sku: "gems-100", quantity: 1, grantId: `race-${i}`, ...by })),
      ...Array.from({ length: 60 }, (_, i) => audit({ actor: `staff:${i}`, action: "access.denied", tenantId: TENANT })),
    ]);
    expect(await verifyChains({ tenant: TENANT })).toMatchObject({ ok: true });
  });

  it("finds a transition's reason edited behind the database's back, and the CLI exits non-zero", async () => {
    const order = await paidOrder();
    const moved = await transit({ orderId: order.id, event: "begin-delivery", bizKey: "b", reason: "as it was", ...by });
    if (moved.result !== "applied") throw new Error(moved.result);
    expect(await cliVerify()).toMatchObject({ code: 0, out: expect.stringMatching(/^ok: \d+ facts in \d+ chains verified/) });

    await behindTheBack(`UPDATE order_transitions SET reason = 'rewritten' WHERE id = $1`, [moved.transition.id]);

    expect(await verifyChains()).toMatchObject({
      ok: false,
      broken: { why: "content-changed", log: "order_transitions", id: moved.transition.id, tenantId: TENANT, orderId: order.id, seq: 2 },
    });
    const cli = await cliVerify();
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`BROKEN: order_transitions #${moved.transition.id} (order ${order.id} of ${TENANT}, position 2`);

    await behindTheBack(`UPDATE order_transitions SET reason = 'as it was' WHERE id = $1`, [moved.transition.id]);
    expect(await verifyChains()).toMatchObject({ ok: true });
  });

  it("finds another audit row edited, and one deleted from the middle or the end of its chain", async () => {
    await audit({ actor: "staff:admin@example.com", action: "apikey.created", tenantId: TENANT, target: "apikey:abc", detail: { name: "k" } });
    const [created] = (await getPool().query(`SELECT id FROM audit_events WHERE action = 'apikey.created' AND tenant_id = $1`, [TENANT])).rows;
    await audit({ actor: "staff:admin@example.com", action: "apikey.revoked", tenantId: TENANT, target: "apikey:abc" });

    await behindTheBack(`UPDATE audit_events SET detail = '{"name": "other"}' WHERE id = $1`, [created.id]);
    expect(await verifyChains()).toMatchObject({ ok: false, broken: { why: "content-changed", log: "audit_events", id: Number(created.id) } });

    await behindTheBack(`DELETE FROM audit_events WHERE id = $1`, [created.id]);
    expect(await verifyChains()).toMatchObject({ ok: false, broken: { why: "sequence-gap", log: "audit_events", tenantId: TENANT, orderId: 0 } });
  });
});

describe("checkpoints", () => {
  it("seal what was verified, show it, and catch a sealed tail cut off with its head rewound", async () => {
    const fresh = await paidOrder();
    let report = await sealCheckpoint();
    // The previous test left a broken chain behind in this database: nothing is sealed past it.
    expect(report).toMatchObject({ result: "broken", broken: { log: "audit_events" } });
    expect((await chainStatus()).broken).not.toBeNull();

    // Repair the damage the way an operator restoring a backup would, then seal.
    await behindTheBack(`DELETE FROM audit_events WHERE tenant_id = $1 AND order_id IS NULL`, [TENANT]);
    await behindTheBack(`DELETE FROM audit_chain_heads WHERE tenant_id = $1 AND order_id = 0`, [TENANT]);
    do report = await sealCheckpoint();
    while (report.result === "sealed" && report.more);
    expect(report).toMatchObject({ result: "sealed" });
    expect(await sealCheckpoint()).toEqual({ result: "nothing-new" });
    const status = await chainStatus();
    expect(status.checkpoint).toMatchObject({ id: expect.any(Number) });
    expect(status.broken).toBeNull();
    expect(await verifyChains()).toMatchObject({ ok: true });

    // Cut the order's last fact off and rewind its head to match: the chain alone looks whole now,
    // but the checkpoint sealed the old head.
    const last = await transit({ orderId: fresh.id, event: "begin-delivery", bizKey: "cut", ...by });
    if (last.result !== "applied") throw new Error(last.result);
    await sealCheckpoint();
    const { rows } = await getPool().query(`SELECT hash FROM order_transitions WHERE order_id = $1 AND chain_seq = 1`, [fresh.id]);
    await behindTheBack(`DELETE FROM order_transitions WHERE id = $1`, [last.transition.id]);
    await behindTheBack(`UPDATE orders SET chain_seq = 1, chain_hash = $2 WHERE id = $1`, [fresh.id, rows[0].hash]);
    expect(await verifyChains()).toMatchObject({ ok: false, broken: { why: "checkpoint-mismatch", orderId: fresh.id, seq: 2 } });
  });
});

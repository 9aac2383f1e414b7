import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyChains } from "@/lib/audit/chain";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { OrderSnapshot } from "@/lib/orders/types";
import { addNote } from "./add-note";

useFreshDatabase();

let order: OrderSnapshot;
let foreign: OrderSnapshot;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("notes"));
  await ensureTenant(getPool(), tenantSpec("notes-other"));
  order = await createOrder(getPool(), { tenantId: "notes" });
  foreign = await createOrder(getPool(), { tenantId: "notes-other" });
});

const notesOf = async (orderId: number) =>
  (await getPool().query(`SELECT id, author, body, corrects_id AS "correctsId" FROM order_notes WHERE order_id = $1 ORDER BY id`, [orderId])).rows;
const outboxCount = async () => (await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages`)).rows[0]!.n;

describe("addNote (internal note)", () => {
  it("any role that sees the order may write one; the same form sent twice at once is one note", async () => {
    signInAs("agent", ["notes"]);
    const form = { tenant: "notes", orderNo: order.orderNo, body: "  Player called: says the gems never arrived  ", noteKey: randomUUID() };
    const outbox = await outboxCount();
    const [a, b] = await Promise.all([addNote(form), addNote(form)]);
    const results = [a, b].map((r) => (r.ok ? r.data : r.error.code));
    expect(results.map((r) => (typeof r === "string" ? r : r.result)).sort()).toEqual(["added", "duplicate"]);
    // Sent again later (a retry after a timeout): still the same note.
    const again = await addNote(form);
    expect(again).toMatchObject({ ok: true, data: { result: "duplicate" } });
    expect(await notesOf(order.id)).toEqual([{ id: expect.any(Number), author: "staff:agent@example.com", body: "Player called: says the gems never arrived", correctsId: null }]);
    // Never sent to a webhook: the note wrote no outbox message.
    expect(await outboxCount()).toBe(outbox);
    // The losing twin moved no chain head: the order's chain still verifies.
    expect(await verifyChains({ tenant: "notes" })).toMatchObject({ ok: true });
  });

  it("corrects a note with a new one naming it, only a note of the same order", async () => {
    signInAs("ops", ["notes", "notes-other"]);
    const [first] = await notesOf(order.id);
    const correction = await addNote({ tenant: "notes", orderNo: order.orderNo, body: "Correction: it was the skin", correctsId: String(first.id), noteKey: randomUUID() });
    expect(correction).toMatchObject({ ok: true, data: { result: "added" } });
    expect((await notesOf(order.id)).at(-1)).toMatchObject({ body: "Correction: it was the skin", correctsId: first.id });

    const elsewhere = await addNote({ tenant: "notes-other", orderNo: foreign.orderNo, body: "wrong order", correctsId: first.id, noteKey: randomUUID() });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await notesOf(foreign.id)).toEqual([]);
  });

  it("takes 1 to 2,000 characters, counted as the database counts them", async () => {
    signInAs("agent", ["notes"]);
    const send = (body: string) => addNote({ tenant: "notes", orderNo: order.orderNo, body, noteKey: randomUUID() });
    expect(await send("   ")).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { body: [expect.any(String)] } } });
    expect(await send("x".repeat(2_001))).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { body: [expect.any(String)] } } });
    // 2,000 characters outside the Basic Multilingual Plane: 4,000 UTF-16 units, 2,000 for PostgreSQL.
    expect(await send("😀".repeat(2_000))).toMatchObject({ ok: true, data: { result: "added" } });
    expect(await send("x".repeat(2_000))).toMatchObject({ ok: true, data: { result: "added" } });
    expect(await send("a\u0000b")).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("refuses an order outside the caller's scope as not found, and writes nothing", async () => {
    signInAs("manager", ["notes"]);
    const before = await notesOf(foreign.id);
    const result = await addNote({ tenant: "notes-other", orderNo: foreign.orderNo, body: "not mine", noteKey: randomUUID() });
    expect(result).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await notesOf(foreign.id)).toEqual(before);
  });
});

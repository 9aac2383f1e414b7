import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { EXPORT_PAGE_SIZE } from "@/lib/csv";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { GET } from "./route";


useFreshDatabase();

const as = (role: Role, tenantIds: readonly string[] = ["exp"]) => signInAs(role, tenantIds);

async function download(query = ""): Promise<{ response: Response; chunks: number; text: string }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/audit/export${query}`), { params: Promise.resolve({}) });
  if (!response.body) return { response, chunks: 0, text: "" };
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true }); // keep the BOM: it is part of what we check
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
  return { response, chunks, text };
}

/** RFC 4180 records: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || record.length > 0) throw new Error("the CSV does not end with a line break");
  return records;
}

const BULK_ROWS = EXPORT_PAGE_SIZE + 700;
const NASTY = [
  'said "refund me", twice',
  "line one\nline two",
  "=HYPERLINK(\"http://evil\")",
  "+cmd",
  "-2+3",
  "@SUM(A1)",
  "退款：玩家重复支付",
];

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("exp"));
  await ensureTenant(pool, tenantSpec("other"));
  const order = await createOrder(pool, { tenantId: "exp", orderNo: "EXP-1" });
  const foreign = await createOrder(pool, { tenantId: "other", orderNo: "OTHER-1" });
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
     SELECT 'exp', $1, 'request-refund', 'delivered', 'refunding', 'bulk-' || n, 'channel:wechat', 'callback', 'bulk ' || n,
            timestamptz '2026-11-01 00:00Z' + n * interval '1 second'
     FROM generate_series(1, $2::int) n`,
    [order.id, BULK_ROWS],
  );
  for (const [i, reason] of NASTY.entries()) {
    await pool.query(
      `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
       VALUES ('exp', $1, 'reject-refund', 'refunding', 'delivered', $2, 'staff:ops@example.com', 'console', $3, timestamptz '2026-11-02 00:00Z' + $4 * interval '1 second')`,
      [order.id, `nasty-${i}`, reason, i],
    );
  }
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, created_at)
     VALUES ('other', $1, 'pay', 'created', 'paid', 'x', 'channel:wechat', 'callback', now())`,
    [foreign.id],
  );
  await pool.query(`INSERT INTO audit_events (tenant_id, actor, action, target, detail) VALUES ('exp', 'staff:boss@example.com', 'settings.updated', 'tenant:exp', '{"before":1,"after":2}')`);
});

describe("GET /api/console/audit/export", () => {
  it("streams every row in scope, more than one page of them, as an attachment", async () => {
    as("manager");
    const { response, chunks, text } = await download();

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-all-\d{8}T\d{6}Z\.csv"$/);
    // Header, then one chunk per page: the export was written as it was read.
    expect(chunks).toBeGreaterThanOrEqual(3);

    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...records] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "at_utc",
      "kind",
      "tenant",
      "order_no",
      "event_or_action",
      "from_state",
      "to_state",
      "actor",
      "source",
      "biz_key",
      "reason",
      "target",
      "detail",
      "sku",
      "quantity",
      "grant_id",
      "note",
      "corrects_note",
    ]);
    expect(records).toHaveLength(BULK_ROWS + NASTY.length + 1);
    expect(records.every((r) => r.length === header!.length)).toBe(true);
    expect(records.some((r) => r[2] === "other")).toBe(false);
    // Newest first, each row once.
    const ids = records.map((r) => `${r[0]}|${r[9]}`);
    expect(new Set(ids).size).toBe(ids.length);
    const times = records.map((r) => r[0]!);
    expect([...times].sort().reverse()).toEqual(times);

    // Every kind of fact is in the export, each under its own kind (here: a settings change).
    const settings = records.find((r) => r[1] === "settings")!;
    expect(settings).toEqual([
      expect.stringMatching(/Z$/),
      "settings",
      "exp",
      "",
      "settings.updated",
      "",
      "",
      "staff:boss@example.com",
      "",
      "",
      "",
      "tenant:exp",
      '{"after":2,"before":1}',
      "",
      "",
      "",
      "",
      "",
    ]);
  });

  it("escapes quotes, commas and line breaks, and defuses spreadsheet formulas", async () => {
    as("manager");
    const { text } = await download("?event=reject-refund");
    const records = parseCsv(text.slice(1)).slice(1);
    expect(records.map((r) => r[10]).reverse()).toEqual([
      'said "refund me", twice',
      "line one\nline two",
      "'=HYPERLINK(\"http://evil\")",
      "'+cmd",
      "'-2+3",
      "'@SUM(A1)",
      "退款：玩家重复支付",
    ]);
    expect(text).toContain('"said ""refund me"", twice"');
    expect(records.every((r) => r[3] === "EXP-1")).toBe(true);
  });

  it("exports the filtered slice only", async () => {
    as("manager");
    const { text } = await download("?actor=staff%3Aops%40example.com&from=2026-11-02T00%3A00&to=2026-11-02T00%3A00%3A03");
    expect(parseCsv(text.slice(1)).slice(1).map((r) => r[10])).toEqual(["'=HYPERLINK(\"http://evil\")", "line one\nline two", 'said "refund me", twice']);
  });

  it("refuses a product outside the caller's scope, bad filters, and roles without audit:export", async () => {
    as("manager");
    expect((await download("?tenant=other")).response.status).toBe(404);
    const bad = await download("?source=fax");
    expect(bad.response.status).toBe(400);
    as("ops");
    expect((await download()).response.status).toBe(403);
  });
});

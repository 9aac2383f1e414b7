import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ORDERS_CSV_HEADER } from "@/lib/orders/queries/orders-csv";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { GET } from "./route";

useFreshDatabase();

// More than one export page of orders, so the stream is seen writing as it reads; a player id a
// spreadsheet would run as a formula; a product outside the caller's scope that must never appear.
const PAGE = 5_000;
const MANY = PAGE + 300;

async function download(query = ""): Promise<{ response: Response; chunks: number; text: string }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/orders/export${query}`), { params: Promise.resolve({}) });
  if (!response.body) return { response, chunks: 0, text: "" };
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
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

/** Lines of cells: none of the cells below hold a comma, quote or line break. */
const records = (text: string) =>
  text
    .slice(1)
    .split("\r\n")
    .filter((l) => l !== "")
    .map((l) => l.split(","));

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("exp", { maxDwellSeconds: { paid: 60 } }));
  await ensureTenant(pool, tenantSpec("other"));
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT 'exp', 'E-' || lpad(n::text, 6, '0'), 'p-' || (n % 40), 600 + n, 'CNY', CASE WHEN n % 3 = 0 THEN 'paid' ELSE 'created' END,
            now() - interval '1 hour', timestamptz '2026-11-01 00:00Z' + n * interval '1 second', now()
     FROM generate_series(1, $1::int) n`,
    [MANY],
  );
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     VALUES ('exp', 'E-FORMULA', '=HYPERLINK("http://evil")', 100, 'CNY', 'created', now(), timestamptz '2026-10-01 00:00Z', now()),
            ('other', 'O-1', 'p-1', 100, 'CNY', 'paid', now() - interval '1 hour', now(), now())`,
  );
});

describe("GET /api/console/orders/export", () => {
  it("streams every order in scope, newest first, more than one page of them, as an attachment; the export is audited", async () => {
    signInAs("ops", ["exp"]);
    const { response, chunks, text } = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="orders-all-\d{8}T\d{6}Z\.csv"$/);
    expect(chunks).toBeGreaterThanOrEqual(3);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = records(text);
    expect(header).toEqual([...ORDERS_CSV_HEADER]);
    expect(rows).toHaveLength(MANY + 1);
    expect(rows.some((r) => r[0] === "other")).toBe(false);
    expect(rows[0]!.slice(0, 6)).toEqual(["exp", `E-${String(MANY).padStart(6, "0")}`, `p-${MANY % 40}`, String(600 + MANY), "CNY", MANY % 3 === 0 ? "paid" : "created"]);
    expect(new Set(rows.map((r) => r[1])).size).toBe(rows.length);
    // A cell a spreadsheet would run is written as text.
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const audit = await getPrisma().auditEvent.findFirst({ where: { action: "orders.exported" }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ actor: "staff:ops@example.com", tenantId: null, target: expect.stringMatching(/^orders-all-/), detail: { filters: {} } });
  });

  it("exports the filtered list only: product, state, stuck, search term, days", async () => {
    signInAs("ops", ["exp", "other"]);
    const stuck = records((await download("?tenant=exp&state=paid&stuck=1")).text).slice(1);
    expect(stuck).toHaveLength(Math.floor(MANY / 3));
    expect(stuck.every((r) => r[0] === "exp" && r[5] === "paid" && r[8] === "true" && r[9] === "60")).toBe(true);
    const player = records((await download("?q=p-7&tenant=exp")).text).slice(1);
    expect(player.length).toBeGreaterThan(0);
    expect(player.every((r) => r[2] === "p-7" && r[11] === "player")).toBe(true);
    const day = records((await download("?from=2026-11-01&to=2026-11-01&tz=UTC")).text).slice(1);
    expect(day).toHaveLength(MANY);
    const audit = await getPrisma().auditEvent.findFirst({ where: { action: "orders.exported", tenantId: "exp" }, orderBy: { id: "desc" } });
    expect(audit?.detail).toEqual({ filters: { q: "p-7", tenant: "exp" } });
  });

  it("refuses a product outside the caller's scope, filters it cannot honour, and roles without orders:export", async () => {
    signInAs("ops", ["exp"]);
    const before = await getPrisma().auditEvent.count({ where: { action: "orders.exported" } });
    expect((await download("?tenant=other")).response.status).toBe(404);
    expect((await download("?from=2026-11-05&to=2026-11-01")).response.status).toBe(400);
    expect((await download("?state=PAID")).response.status).toBe(400);
    signInAs("agent", ["exp"]);
    expect((await download()).response.status).toBe(403);
    expect(await getPrisma().auditEvent.count({ where: { action: "orders.exported" } })).toBe(before);
  });
});

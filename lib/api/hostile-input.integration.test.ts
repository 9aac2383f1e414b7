import { randomUUID } from "node:crypto";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { grantLine } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/grant-line";
import { triggerEvent } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/trigger-event";
import { GET as securityLog } from "@/app/api/console/admin/security/route";
import { GET as staffUser } from "@/app/api/console/admin/users/[id]/route";
import { GET as exportAudit } from "@/app/api/console/audit/export/route";
import { GET as auditPage } from "@/app/api/console/audit/route";
import { GET as dashboardDaily } from "@/app/api/console/dashboard/daily/route";
import { GET as searchTarget } from "@/app/api/console/search/route";
import { GET as orderVersion } from "@/app/api/console/orders/[tenant]/[orderNo]/route";
import { POST as orderPresence } from "@/app/api/console/orders/[tenant]/[orderNo]/presence/route";
import { GET as refundReview } from "@/app/api/console/refund-reviews/[id]/route";
import { GET as delivery } from "@/app/api/console/deliveries/[id]/route";
import { GET as deliveries } from "@/app/api/console/deliveries/route";
import { GET as playerPage } from "@/app/api/console/players/[tenant]/[playerId]/route";
import { POST as postEvent } from "@/app/api/v1/orders/[orderNo]/events/route";
import { POST as postGrant } from "@/app/api/v1/orders/[orderNo]/grants/route";
import { GET as getOrder } from "@/app/api/v1/orders/[orderNo]/route";
import { POST as postOrder } from "@/app/api/v1/orders/route";
import { proxy } from "@/proxy";
import { NOT_FOUND_PATH } from "@/lib/http/page-address";
import { webListener } from "@/lib/process/listener";
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { searchOrders } from "@/lib/orders/queries/search-orders";
import { parseOrderSearch } from "@/lib/orders/search-params";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";

// Issue 11, items 6 and 7 at the entry points: a NUL (PostgreSQL text cannot hold one) in a body
// field, a query string, a form or a path segment used to reach a query and fail it with a 500. Now
// it is a field problem where input is read (400 / { ok: false }), or a 404 in a path; and a path
// with a malformed percent-escape, which Next's router failed with a bare 500, is a 404 from the
// proxy. Nothing is written either way.

useFreshDatabase();

const TENANT = "hostile";
const NUL = "\u0000";
let key = "";
let orderNo = "";
let paidVersion = 0;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
  key = (await createApiKey({ tenantId: TENANT, name: "channel", actor: "test" })).key;
  const order = await createOrder(getPool(), { tenantId: TENANT, amount: 6_00 });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: 6_00, actor: "channel", source: "callback" });
  orderNo = order.orderNo;
  paidVersion = 1;
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, opts: { body?: unknown; params?: Record<string, string>; query?: string; auth?: boolean } = {}) {
  const request = new NextRequest(`http://localhost/x${opts.query ? `?${opts.query}` : ""}`, {
    method: opts.body === undefined ? "GET" : "POST",
    headers: { ...(opts.auth === false ? {} : { authorization: `Bearer ${key}` }), ...(opts.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const response = await handler(request, { params: Promise.resolve(opts.params ?? {}) });
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assertions check every value they read
  return { status: response.status, body: JSON.parse(text) as Record<string, any> };
}

const WRITTEN_TABLES = ["orders", "order_lines", "grants", "order_transitions", "outbox_messages", "order_exceptions", "refund_approvals"];
async function written(): Promise<number[]> {
  return Promise.all(WRITTEN_TABLES.map(async (t) => (await getPool().query<{ n: number }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n));
}

describe("a NUL in the integration API", () => {
  it("in a body field is a 400 naming that field, nothing written", async () => {
    const before = await written();
    const cases: [Handler, unknown, string][] = [
      [postEvent, { event: "begin-delivery", bizKey: `k${NUL}`, reason: "x" }, "bizKey"],
      [postEvent, { event: "begin-delivery", bizKey: "k", reason: `why${NUL}` }, "reason"],
      [postGrant, { sku: "gems-60", quantity: 1, grantId: `g${NUL}` }, "grantId"],
      [postOrder, { orderNo: "N-1", playerId: "p", currency: "CNY", amount: 600, lines: [{ sku: `s${NUL}`, kind: "currency", quantity: 1 }] }, "lines"],
      [postOrder, { orderNo: "N-2", playerId: "p", currency: "CNY", amount: 600, lines: [{ sku: "s", kind: "currency", quantity: 1 }], [`x${NUL}`]: 1 }, ""],
    ];
    for (const [handler, body, field] of cases) {
      const answer = await call(handler, { body, params: { orderNo } });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toEqual({
        code: "invalid-input",
        message: expect.any(String),
        fields: { [field]: ["Contains a control character (NUL) that cannot be stored; remove it."] },
      });
    }
    expect(await written()).toEqual(before);
  });

  it("in the path's {orderNo} is a 404", async () => {
    for (const handler of [getOrder, postEvent, postGrant] as Handler[]) {
      const answer = await call(handler, { params: { orderNo: `${orderNo}${NUL}` }, ...(handler === getOrder ? {} : { body: { event: "close", bizKey: "" } }) });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("not-found");
    }
  });
});

describe("a NUL in the console", () => {
  it("in a console route's path segment is a 404; in its query string a 400", async () => {
    signInAs("manager", [TENANT]);
    expect((await call(orderVersion, { params: { tenant: TENANT, orderNo: `${orderNo}${NUL}` }, auth: false })).status).toBe(404);
    expect((await call(orderVersion, { params: { tenant: `${TENANT}${NUL}`, orderNo }, auth: false })).status).toBe(404);
    const tab = "6f1f8f3e-2a8b-4c55-9d1e-0c6a3c2b1a00";
    expect((await call(orderPresence, { params: { tenant: TENANT, orderNo: `${orderNo}${NUL}` }, body: { tab, since: 0 }, auth: false })).status).toBe(404);
    const presence = await call(orderPresence, { params: { tenant: TENANT, orderNo }, body: { tab: `${tab}${NUL}`, since: 0 }, auth: false });
    expect(presence.status).toBe(400);
    expect(Object.keys(presence.body.error.fields)).toEqual(["tab"]);
    expect((await call(refundReview, { params: { id: `1${NUL}` }, auth: false })).status).toBe(404);
    expect((await call(delivery, { params: { id: `1${NUL}` }, auth: false })).status).toBe(404);
    // The deliveries list reads its filters one by one: a NUL in one drops that filter and names it.
    const filtered = await call(deliveries, { query: `query=${encodeURIComponent("order=X%00&status=dead")}`, auth: false });
    expect(filtered.status).toBe(200);
    expect(filtered.body.json.invalid).toEqual([{ field: "order", problem: { kind: "control-characters" } }]);
    expect(filtered.body.json.raw).toEqual({ status: "dead" });
    // Raw, it is no query string at all: a 400 naming it.
    const rawNul = await call(deliveries, { query: `query=${encodeURIComponent(`order=X${NUL}`)}`, auth: false });
    expect(rawNul.status).toBe(400);
    expect((await call(playerPage, { params: { tenant: TENANT, playerId: `p${NUL}` }, auth: false })).status).toBe(404);
    const paged = await call(playerPage, { params: { tenant: TENANT, playerId: "p" }, query: `after=${encodeURIComponent(`2026${NUL}`)}`, auth: false });
    expect(paged.status).toBe(400);
    expect(Object.keys(paged.body.error.fields)).toEqual(["after"]);
    const exported = await call(exportAudit, { query: `actor=${encodeURIComponent(`staff:a${NUL}`)}`, auth: false });
    expect(exported.status).toBe(400);
    expect(Object.keys(exported.body.error.fields)).toEqual(["actor"]);
    for (const [handler, field, value] of [
      [dashboardDaily, "tenant", `${TENANT}${NUL}`],
      [searchTarget, "q", `${orderNo}${NUL}`],
    ] as const) {
      const answer = await call(handler, { query: `${field}=${encodeURIComponent(value)}`, auth: false });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.error.fields)).toEqual([field]);
    }

    // The explorer's page hands its own query string over as `query`: a raw NUL there is a 400; one
    // inside a filter (escaped, as the page sends it) drops that filter and names it.
    const raw = await call(auditPage, { query: `query=${encodeURIComponent(`actor=a${NUL}`)}`, auth: false });
    expect(rawNul.status).toBe(400);
    expect(Object.keys(raw.body.error.fields)).toEqual(["query"]);
    const dropped = await call(auditPage, { query: new URLSearchParams({ query: new URLSearchParams({ actor: `staff:a${NUL}` }).toString() }).toString(), auth: false });
    expect(dropped.status).toBe(200);
    expect(dropped.body.json.invalid).toEqual([{ field: "actor", problem: { kind: "control-characters" } }]);

    // The admin pages' models: a staff id is no NUL; the security log drops a filter holding one.
    signInAs("admin", [TENANT]);
    expect((await call(staffUser, { params: { id: `1${NUL}` }, auth: false })).status).toBe(404);
    const log = await call(securityLog, { query: new URLSearchParams({ query: `who=a${encodeURIComponent(NUL)}` }).toString(), auth: false });
    expect(log.status).toBe(200);
    expect(log.body.json.invalid).toEqual([{ field: "who", problem: { kind: "control-characters" } }]);
    expect((await call(securityLog, { query: `query=${encodeURIComponent(`who=a${NUL}`)}`, auth: false })).status).toBe(400);
  });

  it("in a server action's input (object or form) is { ok: false } naming the field, nothing written", async () => {
    signInAs("ops", [TENANT]);
    const before = await written();
    const refund = { tenant: TENANT, orderNo, event: "request-refund", reason: `asked${NUL}`, idempotencyKey: randomUUID(), expectedVersion: paidVersion };
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...refund, reason: "asked", channelKey: `rf${NUL}` })) form.set(k, String(v));

    for (const answer of [
      await triggerEvent(refund as Parameters<typeof triggerEvent>[0]),
      await triggerEvent(form),
      await grantLine({ tenant: TENANT, orderNo, sku: `gems-60${NUL}`, quantity: 1, reason: "r", grantKey: randomUUID() }),
      await triggerEvent({ ...refund, reason: "asked", orderNo: `${orderNo}${NUL}` } as Parameters<typeof triggerEvent>[0]),
    ]) {
      expect(answer.ok).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code).toBe("invalid-input");
      expect(Object.values(answer.error.fields ?? {}).flat()).toEqual(["Contains a control character (NUL) that cannot be stored; remove it."]);
    }
    expect(await written()).toEqual(before);
  });
});

describe("a malformed percent-escape in a path", () => {
  const through = (path: string) => proxy(new NextRequest(`http://localhost${path}`, { headers: { cookie: "next-auth.session-token=x" } }));
  /** The address the web process's listener hands Next for `path` (Next itself not involved). */
  const handedOn = (path: string) =>
    new Promise<string | undefined>((resolve) => {
      const req = Object.assign(new IncomingMessage(new Socket()), { method: "GET", url: path });
      const res = new ServerResponse(req);
      webListener([], (given) => resolve(given.url))(req, res);
    });

  it("is the not-found page, asked of Next by the listener before Next's router fails on it", async () => {
    for (const path of [`/orders/${TENANT}/%E0%A4%A`, "/orders/%ED%A0%80/X-1", "/refund-reviews/%E0%A4%A", "/a/%E0%A4%A?x=1"]) {
      expect(await handedOn(path), path).toBe(NOT_FOUND_PATH);
    }
    const api = through("/api/auth/%E0%A4%A");
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: "not-found", message: "Not found." } });
  });

  it("leaves well-formed paths alone: an order's is the order shell's, a refund review's the review shell's", async () => {
    for (const path of [`/orders/${TENANT}/A%2FB`, "/orders/t/%E4%B8%AD", "/api/v1/orders/A-1"]) expect(await handedOn(path), path).toBe(path);
    for (const path of [`/orders/${TENANT}/A%2FB`, "/orders/t/%E4%B8%AD"]) expect(through(path).headers.get("x-middleware-rewrite"), path).toBe("http://localhost/en/orders/_/_");
    expect(through("/refund-reviews/12").headers.get("x-middleware-rewrite")).toBe("http://localhost/en/refund-reviews/_");
    expect(through("/deliveries/12").headers.get("x-middleware-rewrite")).toBe("http://localhost/en/deliveries/_");
    expect(through("/api/v1/orders/A-1").headers.get("x-middleware-rewrite")).toBeNull();
  });
});

describe("the orders page's time zone", () => {
  it("whatever zone the page hands on, the database knows (US/Pacific-New was a 500)", async () => {
    const { values } = parseOrderSearch({ from: "2026-01-01", to: "2026-12-31", tz: "US/Pacific-New" });
    await expect(searchOrders({ scope: [TENANT], createdFrom: values.from, createdTo: values.to, timeZone: values.tz })).resolves.toMatchObject({ rows: [{ orderNo }] });

    const { rows } = await getPool().query<{ name: string }>(`SELECT name FROM pg_timezone_names`);
    const known = new Set(rows.map((r) => r.name));
    const handedOn = Intl.supportedValuesOf("timeZone").map((zone) => parseOrderSearch({ tz: zone }).values.tz);
    expect(handedOn.filter((zone) => !known.has(zone))).toEqual([]);
  });
});

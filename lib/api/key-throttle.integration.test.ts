import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postEvent } from "@/app/api/v1/orders/[orderNo]/events/route";
import { GET as getOrder } from "@/app/api/v1/orders/[orderNo]/route";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { createApiKey } from "./keys";
import { API_KEY_FAILURES, noteApiKeyFailure } from "./key-throttle";

// Repeated failed API-key authentications from one address are answered 429 with Retry-After, a
// valid key is still served, and the trail stays bounded: one audit row per address and minute —
// one budget and one row whichever process serves each request, since the count is in PostgreSQL.
//
// The caller's address reaches the handler in CLIENT_ADDRESS_HEADER, written by the web process's
// listener from the socket (lib/auth/client-address.ts); these tests write it as that listener would.

useFreshDatabase();

type Handler = (request: NextRequest, context: { params: Promise<{ orderNo: string }> }) => Promise<Response>;

let key = "";
const BAD_KEY = `Bearer oo_000000000000_${"A".repeat(43)}`;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("throttle"));
  key = (await createApiKey({ tenantId: "throttle", name: "channel", actor: "test" })).key;
});

async function call(authorization: string | null, extra: { address?: string; forwardedFor?: string; handler?: Handler } = {}) {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (extra.address) headers[CLIENT_ADDRESS_HEADER] = extra.address;
  if (extra.forwardedFor) headers["x-forwarded-for"] = extra.forwardedFor;
  const handler = extra.handler ?? getOrder;
  const post = handler === postEvent;
  if (post) headers["content-type"] = "application/json";
  const request = new NextRequest(`http://localhost/api/v1/orders/NONE${post ? "/events" : ""}`, {
    headers,
    ...(post ? { method: "POST", body: JSON.stringify({ event: "pay", bizKey: "txn-1", amount: 600 }) } : {}),
  });
  const response = await handler(request, { params: Promise.resolve({ orderNo: "NONE" }) });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as { error?: { code: string } } };
}

const throttledRows = (target: string) => getPrisma().auditEvent.findMany({ where: { action: "apikey.auth-failed", target } });

describe("API key failures from one address", () => {
  it("answer 429 with Retry-After past the limit; other addresses and valid keys are served", async () => {
    const attacker = { address: "203.0.113.7" };
    for (let i = 0; i < API_KEY_FAILURES.perWindow; i++) expect((await call(BAD_KEY, attacker)).status).toBe(401);

    const throttled = await call(BAD_KEY, attacker);
    expect(throttled).toMatchObject({ status: 429, body: { error: { code: "rate-limited" } } });
    expect(Number(throttled.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(throttled.retryAfter)).toBeLessThanOrEqual(API_KEY_FAILURES.windowSeconds);
    // A malformed credential is a failure too; a missing one is no attempt at all.
    expect((await call("Bearer not-a-key", attacker)).status).toBe(429);
    expect((await call(null, attacker)).status).toBe(401);

    // The integrator with a valid key behind the same address gets its answer (404: no such order).
    expect((await call(`Bearer ${key}`, attacker)).status).toBe(404);
    expect((await call(BAD_KEY, { address: "198.51.100.9" })).status).toBe(401);

    const rows = await throttledRows("address:203.0.113.7");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip: "203.0.113.7", detail: { failures: API_KEY_FAILURES.perWindow, prefix: "000000000000" } });
  });

  it("are counted the same when refused inside a transaction (POST …/events): 60 at once, more than the pool's connections, end in 20 × 401 and 40 × 429", async () => {
    // The events route checks the key in its transaction's first statement; the failure is counted
    // on a connection of its own only after that transaction rolled back, so a flood cannot hold
    // every pooled connection while each waits for a second one.
    const flood = { address: "203.0.113.61", handler: postEvent };
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(BAD_KEY, flood)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(API_KEY_FAILURES.perWindow);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - API_KEY_FAILURES.perWindow);
    expect(await throttledRows("address:203.0.113.61")).toHaveLength(1);
    // A valid key on the same route is judged on its key first, then on the order: 404.
    expect((await call(`Bearer ${key}`, flood)).status).toBe(404);
  });

  it("are one budget across processes: of 60 at once through two copies of the API, 20 are answered 401, 40 are 429, and one row is written", async () => {
    // A second copy of every module the route loads, as a second web process has: its own memory,
    // the same database. (A count kept in memory would give each copy the whole limit.)
    vi.resetModules();
    const { GET: otherProcess } = await import("@/app/api/v1/orders/[orderNo]/route");
    expect(otherProcess).not.toBe(getOrder);

    const address = "203.0.113.60";
    const failures = Array.from({ length: 60 }, (_, i) => call(BAD_KEY, { address, handler: i % 2 === 0 ? getOrder : otherProcess }));
    const valid = call(`Bearer ${key}`, { address, handler: otherProcess });
    const settled = await Promise.allSettled(failures);
    expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
    const statuses = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof call>>>).value.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(API_KEY_FAILURES.perWindow);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - API_KEY_FAILURES.perWindow);
    expect((await valid).status).toBe(404);
    expect(await throttledRows(`address:${address}`)).toHaveLength(1);
  });
});

describe("API key failures from callers whose address is unknown", () => {
  it("share one count: without the listener's header, X-Forwarded-For buys no fresh count", async () => {
    for (let i = 0; i < API_KEY_FAILURES.perWindow; i++) expect((await call(BAD_KEY, { forwardedFor: `192.0.2.${i}` })).status).toBe(401);
    expect((await call(BAD_KEY, { forwardedFor: "192.0.2.200" })).status).toBe(429);
    expect((await call(BAD_KEY)).status).toBe(429);
    expect((await call(`Bearer ${key}`, { forwardedFor: "192.0.2.200" })).status).toBe(404);
    const rows = await throttledRows("address:unknown");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip: null, detail: { address: null, failures: API_KEY_FAILURES.perWindow } });
  });
});

describe("the failure window", () => {
  it("starts again after a minute, and audits again only then", async () => {
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(t0 + ms);
    const address = "198.18.0.1";
    for (let i = 0; i < API_KEY_FAILURES.perWindow; i++) expect(await noteApiKeyFailure(address, null, at(i))).toBeNull();
    expect(await noteApiKeyFailure(address, null, at(30_000))).toBe(30);
    expect(await noteApiKeyFailure(address, null, at(API_KEY_FAILURES.windowSeconds * 1000))).toBeNull();
    expect(await throttledRows(`address:${address}`)).toHaveLength(1);
    for (let i = 1; i < API_KEY_FAILURES.perWindow; i++) expect(await noteApiKeyFailure(address, null, at(API_KEY_FAILURES.windowSeconds * 1000 + i))).toBeNull();
    expect(await throttledRows(`address:${address}`)).toHaveLength(2);
  });
});

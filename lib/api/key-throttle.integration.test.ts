import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOrder } from "@/app/api/v1/orders/[orderNo]/route";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { createApiKey } from "./keys";
import { API_KEY_FAILURES, noteApiKeyFailure } from "./key-throttle";

// Repeated failed API-key authentications from one address are answered 429 with Retry-After, a
// valid key is still served, and the trail stays bounded: one audit row per address and minute.

useFreshDatabase();

let key = "";
const BAD_KEY = `Bearer oo_000000000000_${"A".repeat(43)}`;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("throttle"));
  key = (await createApiKey({ tenantId: "throttle", name: "channel", actor: "test" })).key;
});

afterEach(() => {
  vi.unstubAllEnvs();
});

async function call(authorization: string | null, forwardedFor?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
  const response = await getOrder(new NextRequest("http://localhost/api/v1/orders/NONE", { headers }), { params: Promise.resolve({ orderNo: "NONE" }) });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as { error?: { code: string } } };
}

const throttledRows = (target: string) => getPrisma().auditEvent.findMany({ where: { action: "apikey.auth-failed", target } });

describe("API key failures behind a trusted proxy", () => {
  it("answer 429 with Retry-After past the limit from one address; other addresses and valid keys are served", async () => {
    vi.stubEnv("TRUSTED_PROXIES", "10.0.0.0/8");
    const attacker = "203.0.113.7, 10.0.0.1";
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
    expect((await call(BAD_KEY, "198.51.100.9, 10.0.0.1")).status).toBe(401);

    const rows = await throttledRows("address:203.0.113.7");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ip: "203.0.113.7", detail: { failures: API_KEY_FAILURES.perWindow, prefixes: ["000000000000"] } });
  });
});

describe("API key failures without trusted proxies", () => {
  it("a forged X-Forwarded-For does not buy a fresh count: unknown callers share one", async () => {
    vi.stubEnv("TRUSTED_PROXIES", "");
    for (let i = 0; i < API_KEY_FAILURES.perWindow; i++) expect((await call(BAD_KEY, `192.0.2.${i}`)).status).toBe(401);
    expect((await call(BAD_KEY, "192.0.2.200")).status).toBe(429);
    expect((await call(`Bearer ${key}`, "192.0.2.200")).status).toBe(404);
    expect(await throttledRows("address:unknown")).toHaveLength(1);
  });
});

describe("the failure window", () => {
  it("starts again after a minute, and audits again only then", async () => {
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const address = "198.18.0.1";
    for (let i = 0; i < API_KEY_FAILURES.perWindow; i++) expect(await noteApiKeyFailure(address, null, t0 + i)).toBeNull();
    expect(await noteApiKeyFailure(address, null, t0 + 30_000)).toBe(30);
    expect(await noteApiKeyFailure(address, null, t0 + API_KEY_FAILURES.windowSeconds * 1000)).toBeNull();
    expect(await throttledRows(`address:${address}`)).toHaveLength(1);
  });
});

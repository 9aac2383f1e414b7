import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { createApiKey, revokeApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";

// The API's description is served to the integrators who code against it (any valid key) and to
// the admins who onboard them (the console's reference); to nobody else.

useFreshDatabase();

let key = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("openapi"));
  key = (await createApiKey({ tenantId: "openapi", name: "integrator", actor: "test" })).key;
});

async function fetchDocument(authorization?: string) {
  const response = await GET(new NextRequest("http://localhost/api/v1/openapi.json", { headers: authorization ? { authorization } : {} }), {
    params: Promise.resolve({}),
  });
  return { status: response.status, body: (await response.json()) as { openapi?: string; paths?: object; error?: { code: string } } };
}

describe("GET /api/v1/openapi.json", () => {
  it("answers any valid API key with the document", async () => {
    signOut();
    const { status, body } = await fetchDocument(`Bearer ${key}`);
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(body.paths ?? {})).toContain("/api/v1/orders");
  });

  it("still answers a signed-in admin (the console's reference)", async () => {
    signInAs("admin", []);
    expect((await fetchDocument()).status).toBe(200);
  });

  it("refuses anonymous callers, staff without the permission, and bad or revoked keys", async () => {
    signOut();
    expect(await fetchDocument()).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    signInAs("agent", ["openapi"]);
    expect((await fetchDocument()).status).toBe(403);
    signInAs("admin", []);
    expect((await fetchDocument(`Bearer oo_000000000000_${"A".repeat(43)}`)).status).toBe(401);
    expect((await fetchDocument("Basic YWRtaW46YWRtaW4=")).status).toBe(401);

    const { key: doomed, summary } = await createApiKey({ tenantId: "openapi", name: "doomed", actor: "test" });
    expect((await fetchDocument(`Bearer ${doomed}`)).status).toBe(200);
    await revokeApiKey(summary, "test");
    expect((await fetchDocument(`Bearer ${doomed}`)).status).toBe(401);
  });
});

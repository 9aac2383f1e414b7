import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/admin/api-keys/route";
import { createApiKey, revokeApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { ApiKeysModel } from "./api-keys";

// The API keys page's read model through its route: the keys of the caller's products only, named
// by their prefix; never a secret nor its hash.

useFreshDatabase();

let alphaKey = "";
let revokedPrefix = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("ak-alpha"));
  await ensureTenant(getPool(), tenantSpec("ak-beta"));
  alphaKey = (await createApiKey({ tenantId: "ak-alpha", name: "callbacks", actor: "staff:admin@example.com" })).key;
  const revoked = await createApiKey({ tenantId: "ak-alpha", name: "old", actor: "staff:admin@example.com" });
  revokedPrefix = revoked.summary.prefix;
  await revokeApiKey({ prefix: revokedPrefix, tenantId: "ak-alpha" }, "staff:admin@example.com");
  await createApiKey({ tenantId: "ak-beta", name: "elsewhere", actor: "staff:admin@example.com" });
});

async function read(): Promise<{ status: number; model: ApiKeysModel | null; text: string }> {
  const response = await GET(new NextRequest("http://localhost/api/console/admin/api-keys"), { params: Promise.resolve({}) });
  const text = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<ApiKeysModel>(text) : null, text };
}

describe("GET /api/console/admin/api-keys", () => {
  it("lists the keys of the caller's products only, revoked ones said so, and no secret nor hash", async () => {
    signInAs("admin", ["ak-alpha"]);
    const { model, text } = await read();
    expect(model!.tenants).toEqual(["ak-alpha"]);
    expect(model!.keys.map((k) => [k.tenantId, k.name, k.revokedAt !== null])).toEqual([
      ["ak-alpha", "old", true],
      ["ak-alpha", "callbacks", false],
    ]);
    expect(Object.keys(model!.keys[0]!).sort()).toEqual(["createdAt", "createdBy", "lastUsedAt", "name", "prefix", "revokedAt", "tenantId"]);
    const { rows } = await getPool().query<{ secret_hash: string }>(`SELECT secret_hash FROM api_keys`);
    for (const secret of [alphaKey.split("_").pop()!, ...rows.map((r) => r.secret_hash)]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secretHash|secret_hash/);
  });

  it("offers no product to a caller with none, and lists nothing", async () => {
    signInAs("admin", []);
    expect((await read()).model).toEqual({ tenants: [], keys: [] });
  });

  it("refuses a manager (no apikeys:manage)", async () => {
    signInAs("manager", ["ak-alpha"]);
    expect((await read()).status).toBe(403);
  });
});

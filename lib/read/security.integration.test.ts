import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/admin/security/route";
import { createApiKey } from "@/lib/api/keys";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { SecurityModel } from "./security";

// The security log's read model through its route: the facts without a product and those of the
// caller's own products, never another product's; the URL's filters read one by one, a bad one
// dropped and said.

useFreshDatabase();

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("sec-alpha"));
  await ensureTenant(getPool(), tenantSpec("sec-beta"));
  await audit({ actor: "staff:ann@sec.test", action: "sign-in.succeeded", target: "ann@sec.test", ip: "10.0.0.7" });
  await audit({ actor: "staff:bob@sec.test", action: "sign-in.succeeded", target: "bob@sec.test", ip: "10.0.0.8" });
  await createApiKey({ tenantId: "sec-alpha", name: "alpha-key", actor: "staff:ann@sec.test" });
  await createApiKey({ tenantId: "sec-beta", name: "beta-key", actor: "staff:ann@sec.test" });
});

async function read(query: string): Promise<{ status: number; model: SecurityModel | null }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/admin/security?${new URLSearchParams({ query })}`), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<SecurityModel>(await response.text()) : null };
}

const facts = (m: SecurityModel) => m.page.rows.map((r) => (r.log === "action" ? `${r.action} ${r.tenantId ?? "-"} ${r.target}` : r.log));

describe("GET /api/console/admin/security", () => {
  it("shows the facts without a product and those of the caller's own products, never another's", async () => {
    signInAs("admin", ["sec-alpha"]);
    const { model } = await read("");
    const shown = facts(model!);
    expect(shown.filter((f) => f.startsWith("sign-in.succeeded"))).toHaveLength(2);
    expect(shown.filter((f) => f.startsWith("apikey.created sec-alpha"))).toHaveLength(1);
    expect(shown.some((f) => f.includes("sec-beta"))).toBe(false);
    expect(model!.isFirstPage).toBe(true);
    expect(model!.query).toBe("");
    expect(model!.invalid).toEqual([]);
  });

  it("filters by person and action, and hands the understood filters back for the form and the links", async () => {
    signInAs("admin", ["sec-alpha"]);
    const { model } = await read("who=ann%40sec.test&action=sign-in.succeeded");
    expect(facts(model!)).toEqual(["sign-in.succeeded - ann@sec.test"]);
    expect(model!.raw).toEqual({ action: "sign-in.succeeded", who: "ann@sec.test" });
    expect(model!.query).toBe("?action=sign-in.succeeded&who=ann%40sec.test");
  });

  it("drops a filter it cannot read (a NUL included) and says which, instead of refusing the page", async () => {
    signInAs("admin", ["sec-alpha"]);
    const { status, model } = await read("ip=not-an-address&who=a%00b&action=sign-in.succeeded");
    expect(status).toBe(200);
    expect(model!.invalid.map((i) => i.field).sort()).toEqual(["ip", "who"]);
    expect(model!.filters).toEqual({ action: "sign-in.succeeded" });
    expect(facts(model!)).toHaveLength(2);
  });

  it("refuses a manager (no users:manage)", async () => {
    signInAs("manager", ["sec-alpha"]);
    expect((await read("")).status).toBe(403);
  });
});

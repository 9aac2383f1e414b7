import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { createApiKeyAction } from "./create-api-key";
import { revokeApiKeyAction } from "./revoke-api-key";

// The API key actions as a scoped admin fires them: keys of a tenant outside the admin's scope can
// neither be made nor revoked (answered like a missing tenant or key), and each change that is made
// has its audit row.


useFreshDatabase();

const as = (tenantIds: string[]) => signInAs("admin", tenantIds, { email: `admin-${tenantIds.join("-")}@test.local`, name: "Admin" });

/** Every key as it stands and every audit row but refusals (which are audited on purpose). */
async function written(): Promise<unknown> {
  const { rows } = await getPool().query(
    `SELECT (SELECT json_agg(k ORDER BY id) FROM api_keys k) AS keys,
            (SELECT count(*)::int FROM audit_events WHERE action <> 'access.denied') AS audits`,
  );
  return rows[0];
}

async function auditActions(prefix: string): Promise<string[]> {
  const { rows } = await getPool().query<{ action: string }>(`SELECT action FROM audit_events WHERE target = $1 ORDER BY id`, [`apikey:${prefix}`]);
  return rows.map((r) => r.action);
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("alpha"));
  await ensureTenant(getPool(), tenantSpec("beta"));
});

describe("an admin of alpha only", () => {
  it("cannot create a key for beta, nor revoke one of beta's: not found, nothing written", async () => {
    const betaKey = (await createApiKey({ tenantId: "beta", name: "beta-channel", actor: "test" })).summary;
    as(["alpha"]);
    const before = await written();

    expect(await createApiKeyAction({ tenant: "beta", name: "sneaky" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await revokeApiKeyAction({ prefix: betaKey.prefix })).toMatchObject({ ok: false, error: { code: "not-found" } });

    expect(await written()).toEqual(before);
  });

  it("refuses a badly named key and a name taken in the tenant, in words of the problem", async () => {
    as(["alpha"]);
    await createApiKey({ tenantId: "alpha", name: "taken", actor: "test" });

    expect(await createApiKeyAction({ tenant: "alpha", name: "Not A Name" })).toMatchObject({
      ok: false,
      error: { code: "invalid-input", fields: { name: ["Lower-case letters, digits, dot, dash and underscore, starting with a letter or digit."] } },
    });
    expect(await createApiKeyAction({ tenant: "alpha", name: "taken" })).toMatchObject({
      ok: false,
      error: { code: "conflict", problem: { kind: "key-name-taken", tenant: "alpha", name: "taken" }, message: 'Alpha already has a key named "taken".' },
    });
  });
});

describe("an admin of alpha and beta", () => {
  it("creates and revokes a key of beta, each with its audit row; revoking again changes nothing", async () => {
    as(["alpha", "beta"]);

    const created = await createApiKeyAction({ tenant: "beta", name: "beta-callbacks" });
    expect(created).toMatchObject({ ok: true, data: { key: expect.stringMatching(/^oo_[a-z0-9]{12}_/) } });
    const prefix = created.ok ? created.data.prefix : "";

    expect(await revokeApiKeyAction({ prefix })).toMatchObject({ ok: true, data: { prefix, revoked: true } });
    expect(await revokeApiKeyAction({ prefix })).toMatchObject({ ok: true, data: { prefix, revoked: false } });

    expect(await auditActions(prefix)).toEqual(["apikey.created", "apikey.revoked"]);
    const { rows } = await getPool().query(`SELECT tenant_id, created_by, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE prefix = $1`, [prefix]);
    expect(rows).toEqual([{ tenant_id: "beta", created_by: "staff:admin-alpha-beta@test.local", revoked: true }]);
  });
});

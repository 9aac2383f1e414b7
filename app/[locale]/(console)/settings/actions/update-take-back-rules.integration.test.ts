import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { DEFAULT_TAKE_BACK_RULES } from "@/lib/orders/take-back";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateRefundWatch } from "./update-refund-watch";
import { updateTakeBackRules, type UpdateTakeBackRulesInput } from "./update-take-back-rules";

useFreshDatabase();

const TENANT = "take-back-settings";
const current = async () => (await listTenantSettings([TENANT]))[0]!;

const form = (expectedUpdatedAt: string, overrides: Partial<UpdateTakeBackRulesInput> = {}): UpdateTakeBackRulesInput => ({
  tenant: TENANT,
  expectedUpdatedAt,
  ...DEFAULT_TAKE_BACK_RULES,
  revokeEndpointUrl: "",
  ...overrides,
});

async function auditRows() {
  const { rows } = await getPool().query(`SELECT actor, tenant_id AS "tenantId", detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [
    `tenant:${TENANT}`,
  ]);
  return rows;
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

describe("settings: take-back rules and the revoke endpoint", () => {
  it("saves each kind's rule and the endpoint, audits what changed with before and after, and saves the same values as unchanged", async () => {
    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const start = await current();
    expect(start).toMatchObject({ takeBackRules: DEFAULT_TAKE_BACK_RULES, revokeEndpointUrl: null });

    const saved = await updateTakeBackRules(form(start.updatedAt, { currency: "negative-balance", cosmetic: "revoke", revokeEndpointUrl: " https://game.example.com/revoke " }));
    expect(saved).toMatchObject({
      ok: true,
      data: {
        status: "saved",
        before: { rules: { currency: "revoke", cosmetic: "write-off" }, revokeEndpointUrl: null },
        after: { rules: { currency: "negative-balance", cosmetic: "revoke" }, revokeEndpointUrl: "https://game.example.com/revoke" },
      },
    });
    const after = await current();
    expect(after.takeBackRules).toEqual({ currency: "negative-balance", stamina: "revoke", cosmetic: "revoke", item: "write-off" });
    expect(after.revokeEndpointUrl).toBe("https://game.example.com/revoke");
    expect(after.updatedAt).not.toBe(start.updatedAt);
    expect(after.lastChange?.actor).toBe("staff:manager@example.com");

    const same = form(after.updatedAt, { currency: "negative-balance", cosmetic: "revoke", revokeEndpointUrl: "https://game.example.com/revoke" });
    expect(await updateTakeBackRules(same)).toMatchObject({ ok: true, data: { status: "unchanged" } });

    // The demo's simulated game listens on this machine over plain http; emptying the field removes the endpoint.
    const local = await updateTakeBackRules({ ...same, revokeEndpointUrl: "http://127.0.0.1:4010/revoke" });
    expect(local).toMatchObject({ ok: true, data: { before: { revokeEndpointUrl: "https://game.example.com/revoke" }, after: { revokeEndpointUrl: "http://127.0.0.1:4010/revoke" } } });
    expect(local.ok && local.data.status === "saved" && "rules" in (local.data.after as object)).toBe(false);
    expect(await updateTakeBackRules({ ...same, expectedUpdatedAt: (await current()).updatedAt, revokeEndpointUrl: "http://localhost:4010/revoke" })).toMatchObject({ ok: true });
    expect(await updateTakeBackRules({ ...same, expectedUpdatedAt: (await current()).updatedAt, revokeEndpointUrl: "" })).toMatchObject({
      ok: true,
      data: { status: "saved", before: { revokeEndpointUrl: "http://localhost:4010/revoke" }, after: { revokeEndpointUrl: null } },
    });
    expect((await current()).revokeEndpointUrl).toBeNull();

    expect(await auditRows()).toEqual([
      {
        actor: "staff:manager@example.com",
        tenantId: TENANT,
        detail: {
          field: "take_back_rules",
          before: { rules: { currency: "revoke", cosmetic: "write-off" }, revokeEndpointUrl: null },
          after: { rules: { currency: "negative-balance", cosmetic: "revoke" }, revokeEndpointUrl: "https://game.example.com/revoke" },
        },
      },
      {
        actor: "staff:manager@example.com",
        tenantId: TENANT,
        detail: { field: "take_back_rules", before: { revokeEndpointUrl: "https://game.example.com/revoke" }, after: { revokeEndpointUrl: "http://127.0.0.1:4010/revoke" } },
      },
      {
        actor: "staff:manager@example.com",
        tenantId: TENANT,
        detail: { field: "take_back_rules", before: { revokeEndpointUrl: "http://127.0.0.1:4010/revoke" }, after: { revokeEndpointUrl: "http://localhost:4010/revoke" } },
      },
      {
        actor: "staff:manager@example.com",
        tenantId: TENANT,
        detail: { field: "take_back_rules", before: { revokeEndpointUrl: "http://localhost:4010/revoke" }, after: { revokeEndpointUrl: null } },
      },
    ]);
  });

  it("refuses a debt for a kind with no balance (cosmetic, item) on that kind's field, and rules or endpoints that are not valid, without a change", async () => {
    signInAs("manager", [TENANT]);
    const before = await current();
    const audited = (await auditRows()).length;

    for (const kind of ["cosmetic", "item"] as const) {
      const refused = await updateTakeBackRules(form(before.updatedAt, { [kind]: "negative-balance" }));
      expect(refused, kind).toMatchObject({ ok: false, error: { code: "invalid-input" } });
      // Only that kind's select is flagged, with the rules it may take.
      expect(!refused.ok && refused.error.fields, kind).toEqual({ [kind]: ["Choose revoke or write-off."] });
    }
    expect(await updateTakeBackRules(form(before.updatedAt, { stamina: "confiscate" as never }))).toMatchObject({
      ok: false,
      error: { code: "invalid-input", fields: { stamina: [expect.any(String)] } },
    });
    for (const url of ["http://game.example.com/revoke", "ftp://127.0.0.1/revoke", "not a url", "https://user:secret@game.example.com/revoke", `https://game.example.com/${"x".repeat(2048)}`]) {
      expect(await updateTakeBackRules(form(before.updatedAt, { revokeEndpointUrl: url })), url).toMatchObject({
        ok: false,
        error: { code: "invalid-input", fields: { revokeEndpointUrl: [expect.any(String)] } },
      });
    }

    expect(await current()).toMatchObject({ takeBackRules: before.takeBackRules, revokeEndpointUrl: before.revokeEndpointUrl, updatedAt: before.updatedAt });
    expect(await auditRows()).toHaveLength(audited);
  });

  it("is refused to an agent, and to a manager of another product, without a change", async () => {
    const before = await current();
    signInAs("agent", [TENANT]);
    expect(await updateTakeBackRules(form(before.updatedAt, { item: "revoke" }))).toMatchObject({ ok: false, error: { code: "forbidden" } });
    signInAs("manager", ["elsewhere"]);
    expect(await updateTakeBackRules(form(before.updatedAt, { item: "revoke" }))).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await current()).toMatchObject({ takeBackRules: before.takeBackRules, updatedAt: before.updatedAt });
  });

  it("refuses a stale form and keeps what was saved since", async () => {
    signInAs("manager", [TENANT], { email: "other@example.com" });
    const rendered = await current();
    // Someone saves another section of the same tenant: one row, one version.
    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: rendered.updatedAt, percent: "25" })).toMatchObject({ ok: true, data: { status: "saved" } });

    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const stale = await updateTakeBackRules(form(rendered.updatedAt, { item: "revoke" }));
    expect(stale).toMatchObject({ ok: false, error: { code: "conflict", message: expect.stringContaining(TENANT) } });
    expect((await current()).takeBackRules.item).toBe(rendered.takeBackRules.item);
    expect((await current()).refundWatchPercent).toBe(25);
  });
});

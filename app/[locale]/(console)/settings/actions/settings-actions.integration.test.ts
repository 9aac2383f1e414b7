import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateDwell } from "./update-dwell";
import { updateRefundApproval } from "./update-refund-approval";
import { updateUnpaidTimeout } from "./update-unpaid-timeout";


useFreshDatabase();

const as = (role: Role, tenantIds: readonly string[] = ["game-a"], email = `${role}@example.com`) => signInAs(role, tenantIds, { email });

async function current(tenant: string) {
  const [settings] = await listTenantSettings([tenant]);
  if (!settings) throw new Error(`no settings for ${tenant}`);
  return settings;
}

async function auditRows(tenant: string) {
  const { rows } = await getPool().query(
    `SELECT actor, action, target, tenant_id AS "tenantId", detail FROM audit_events WHERE target = $1 ORDER BY id`,
    [`tenant:${tenant}`],
  );
  return rows;
}

const minutes = (value: number) => ({ value, unit: "minutes" as const });

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("game-a", { refundApprovalAmount: 100_00, maxDwellSeconds: { created: 1800, paid: 300, delivering: 600, refunding: 259_200 } }));
  await ensureTenant(pool, tenantSpec("game-b"));
  await ensureTenant(pool, tenantSpec("game-c"));
});

describe("settings actions", () => {
  it("saves the refund approval amount typed as money, in minor units, with an audit row of before and after", async () => {
    as("manager");
    const before = await current("game-a");

    const result = await updateRefundApproval({ tenant: "game-a", expectedUpdatedAt: before.updatedAt, amount: " 250.5 " });

    expect(result).toMatchObject({ ok: true, data: { status: "saved", before: 100_00, after: 250_50 } });
    const after = await current("game-a");
    expect(after.refundApprovalAmount).toBe(250_50);
    expect(after.updatedAt).not.toBe(before.updatedAt);
    expect(after.lastChange?.actor).toBe("staff:manager@example.com");
    expect(await auditRows("game-a")).toEqual([
      {
        actor: "staff:manager@example.com",
        action: "settings.updated",
        target: "tenant:game-a",
        tenantId: "game-a",
        detail: { field: "refund_approval_amount", before: 100_00, after: 250_50, currency: "CNY" },
      },
    ]);
  });

  it("saves the max dwell per state from friendly units, recording only the states that changed", async () => {
    as("manager");
    const { updatedAt } = await current("game-a");

    const result = await updateDwell({
      tenant: "game-a",
      expectedUpdatedAt: updatedAt,
      created: minutes(30),
      paid: { value: 10, unit: "minutes" },
      delivering: { value: 600, unit: "seconds" },
      refunding: { value: 3, unit: "days" },
    });

    expect(result).toMatchObject({ ok: true, data: { status: "saved", before: { paid: 300 }, after: { paid: 600 } } });
    expect((await current("game-a")).maxDwellSeconds).toEqual({ created: 1800, paid: 600, delivering: 600, refunding: 259_200 });
    expect((await auditRows("game-a")).at(-1)).toMatchObject({ detail: { field: "max_dwell_seconds", before: { paid: 300 }, after: { paid: 600 } } });
  });

  it("saves the unpaid timeout", async () => {
    as("manager");
    const { updatedAt } = await current("game-a");
    const result = await updateUnpaidTimeout({ tenant: "game-a", expectedUpdatedAt: updatedAt, timeout: { value: 2, unit: "hours" } });
    expect(result).toMatchObject({ ok: true, data: { status: "saved", before: 1800, after: 7200 } });
    expect((await current("game-a")).unpaidTimeoutSeconds).toBe(7200);
  });

  it("writes nothing when the form holds the current values", async () => {
    as("manager");
    const { updatedAt, unpaidTimeoutSeconds } = await current("game-a");
    const auditBefore = (await auditRows("game-a")).length;
    const result = await updateUnpaidTimeout({ tenant: "game-a", expectedUpdatedAt: updatedAt, timeout: { value: unpaidTimeoutSeconds, unit: "seconds" } });
    expect(result).toEqual({ ok: true, data: { status: "unchanged", updatedAt } });
    expect((await current("game-a")).updatedAt).toBe(updatedAt);
    expect(await auditRows("game-a")).toHaveLength(auditBefore);
  });

  it("refuses a stale form — someone saved since it rendered — naming who, and changes nothing", async () => {
    as("manager", ["game-b"], "first@example.com");
    const rendered = await current("game-b");
    const first = await updateRefundApproval({ tenant: "game-b", expectedUpdatedAt: rendered.updatedAt, amount: "300" });
    expect(first.ok).toBe(true);

    as("manager", ["game-b"], "second@example.com");
    const second = await updateUnpaidTimeout({ tenant: "game-b", expectedUpdatedAt: rendered.updatedAt, timeout: minutes(45) });

    expect(second).toMatchObject({ ok: false, error: { code: "conflict" } });
    if (second.ok) throw new Error("unreachable");
    expect(second.error.message).toMatch(/^The settings of game-b were saved again since this page was opened \(by first@example\.com at .+ UTC\)\. Nothing was changed/);
    const now = await current("game-b");
    expect(now.unpaidTimeoutSeconds).toBe(rendered.unpaidTimeoutSeconds);
    expect(now.refundApprovalAmount).toBe(300_00);
    expect(await auditRows("game-b")).toHaveLength(1);
  });

  it("two saves from the same rendered form race: exactly one wins", async () => {
    as("manager", ["game-b"]);
    const { updatedAt } = await current("game-b");
    const results = await Promise.all(
      ["111", "222", "333", "444"].map((amount) => updateRefundApproval({ tenant: "game-b", expectedUpdatedAt: updatedAt, amount })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error.code === "conflict")).toHaveLength(3);
  });

  it("validates with clear messages, writing nothing", async () => {
    as("manager");
    const { updatedAt } = await current("game-a");
    const auditBefore = (await auditRows("game-a")).length;

    const money = await updateRefundApproval({ tenant: "game-a", expectedUpdatedAt: updatedAt, amount: "12.345" });
    expect(money).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { amount: [expect.stringMatching(/^Enter an amount like 100 or 99\.50/)] } } });
    const zero = await updateRefundApproval({ tenant: "game-a", expectedUpdatedAt: updatedAt, amount: "0" });
    expect(zero).toMatchObject({ ok: false, error: { fields: { amount: ["At least 0.01."] } } });
    const huge = await updateRefundApproval({ tenant: "game-a", expectedUpdatedAt: updatedAt, amount: "2000000" });
    expect(huge).toMatchObject({ ok: false, error: { fields: { amount: ["At most 1,000,000.00."] } } });

    const dwell = await updateDwell({
      tenant: "game-a",
      expectedUpdatedAt: updatedAt,
      created: minutes(0),
      paid: { value: 30, unit: "seconds" },
      delivering: { value: 8, unit: "days" },
      refunding: { value: 1.5, unit: "days" },
    });
    expect(dwell).toMatchObject({
      ok: false,
      error: {
        code: "invalid-input",
        fields: {
          created: ["At least 1."],
          paid: ["At least 1 minute."],
          delivering: ["At most 7 days."],
          refunding: ["Enter a whole number."],
        },
      },
    });
    const timeout = await updateUnpaidTimeout({ tenant: "game-a", expectedUpdatedAt: "yesterday", timeout: minutes(10) });
    expect(timeout).toMatchObject({ ok: false, error: { fields: { expectedUpdatedAt: ["The form is missing its version: reload the page."] } } });

    expect(await auditRows("game-a")).toHaveLength(auditBefore);
  });

  it("refuses a tenant outside the manager's scope like a missing one, and roles without settings:edit", async () => {
    as("manager", ["game-a"]);
    const { updatedAt, refundApprovalAmount } = await current("game-c");
    const foreign = await updateRefundApproval({ tenant: "game-c", expectedUpdatedAt: updatedAt, amount: "1" });
    expect(foreign).toMatchObject({ ok: false, error: { code: "not-found" } });

    as("ops", ["game-c"]);
    const ops = await updateRefundApproval({ tenant: "game-c", expectedUpdatedAt: updatedAt, amount: "1" });
    expect(ops).toMatchObject({ ok: false, error: { code: "forbidden" } });

    expect((await current("game-c")).refundApprovalAmount).toBe(refundApprovalAmount);
    // The out-of-scope attempt is audited; nothing was changed.
    expect((await auditRows("game-c")).map((r) => [r.action, r.actor])).toEqual([["access.denied", "staff:manager@example.com"]]);
  });
});

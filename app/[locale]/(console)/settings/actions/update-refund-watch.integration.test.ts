import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateRefundWatch } from "./update-refund-watch";

useFreshDatabase();

const TENANT = "watch-settings";
const current = async () => (await listTenantSettings([TENANT]))[0]!;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

describe("settings: the refund watch threshold", () => {
  it("is set as a whole percentage from 1 to 100 and emptied to turn it off, each save audited with before and after", async () => {
    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const off = await current();
    expect(off.refundWatchPercent).toBeNull();

    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: off.updatedAt, percent: " 30 " })).toMatchObject({
      ok: true,
      data: { status: "saved", before: null, after: 30 },
    });
    const on = await current();
    expect(on.refundWatchPercent).toBe(30);
    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: on.updatedAt, percent: "30" })).toMatchObject({ ok: true, data: { status: "unchanged" } });

    for (const percent of ["0", "101", "12.5", "-5", "thirty"]) {
      const refused = await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: on.updatedAt, percent });
      expect(refused, percent).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { percent: [expect.any(String)] } } });
    }
    expect(await current()).toMatchObject({ refundWatchPercent: 30, updatedAt: on.updatedAt });

    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: on.updatedAt, percent: "100" })).toMatchObject({ ok: true, data: { after: 100 } });
    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: (await current()).updatedAt, percent: "" })).toMatchObject({
      ok: true,
      data: { status: "saved", before: 100, after: null },
    });
    expect((await current()).refundWatchPercent).toBeNull();

    const { rows } = await getPool().query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [`tenant:${TENANT}`]);
    expect(rows).toEqual([
      { actor: "staff:manager@example.com", detail: { field: "refund_watch_percent", before: null, after: 30 } },
      { actor: "staff:manager@example.com", detail: { field: "refund_watch_percent", before: 30, after: 100 } },
      { actor: "staff:manager@example.com", detail: { field: "refund_watch_percent", before: 100, after: null } },
    ]);
  });

  it("is refused to an agent, and to a manager of another product, without a change", async () => {
    const { updatedAt } = await current();
    signInAs("agent", [TENANT]);
    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: updatedAt, percent: "40" })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    signInAs("manager", ["elsewhere"]);
    expect(await updateRefundWatch({ tenant: TENANT, expectedUpdatedAt: updatedAt, percent: "40" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect((await current()).refundWatchPercent).toBeNull();
  });
});

// Issue 29 (polish): case dialogs offer the product's canned reasons, kept in settings beside the
// order events' lists and read with the queue.
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { loadCaseReasons } from "./case-reasons";

useFreshDatabase();

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("reasons"));
});

describe("case canned reasons", () => {
  it("a product's lists for case actions are kept by settings, beside the events', and read for the case dialogs", async () => {
    const [before] = await listTenantSettings(["reasons"]);
    const value = { close: ["the player asked us to cancel"], "case-dismiss": ["duplicate notification from the channel"], "case-refund-told": ["asked in the channel's merchant portal"] };
    expect(await updateTenantSettings("reasons", before!.updatedAt, { field: "canned_reasons", value }, "staff:manager@example.com")).toMatchObject({ status: "saved" });
    const [after] = await listTenantSettings(["reasons"]);
    expect(after!.cannedReasons).toEqual(value);

    expect(await loadCaseReasons(["reasons"])).toEqual({
      reasons: { "case-dismiss": ["duplicate notification from the channel"], "case-refund-told": ["asked in the channel's merchant portal"] },
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateCannedReasons } from "./update-canned-reasons";

useFreshDatabase();

async function current(tenant: string) {
  const [settings] = await listTenantSettings([tenant]);
  if (!settings) throw new Error(`no settings for ${tenant}`);
  return settings;
}

async function auditDetails(tenant: string) {
  const { rows } = await getPool().query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [`tenant:${tenant}`]);
  return rows;
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("game-a"));
  await ensureTenant(getPool(), tenantSpec("game-b"));
});

describe("settings: canned reasons", () => {
  it("saves one list per event from one reason per line, with an audit row naming each changed event's before and after", async () => {
    signInAs("manager", ["game-a"], { email: "manager@example.com" });
    const before = await current("game-a");
    expect(before.cannedReasons).toEqual({});

    const result = await updateCannedReasons({
      tenant: "game-a",
      expectedUpdatedAt: before.updatedAt,
      close: "  player abandoned the purchase \n\nduplicate order from the client\nplayer abandoned the purchase",
      "request-refund": "charged twice for one purchase",
      pay: "",
    });

    expect(result).toMatchObject({ ok: true, data: { status: "saved" } });
    const after = await current("game-a");
    expect(after.cannedReasons).toEqual({
      close: ["player abandoned the purchase", "duplicate order from the client"],
      "request-refund": ["charged twice for one purchase"],
    });
    expect(await auditDetails("game-a")).toEqual([
      {
        actor: "staff:manager@example.com",
        detail: {
          field: "canned_reasons",
          before: { close: [], "request-refund": [] },
          after: { close: ["player abandoned the purchase", "duplicate order from the client"], "request-refund": ["charged twice for one purchase"] },
        },
      },
    ]);

    // The same lists again: nothing written, no second audit row.
    const again = await updateCannedReasons({ tenant: "game-a", expectedUpdatedAt: after.updatedAt, close: after.cannedReasons.close!.join("\n"), "request-refund": "charged twice for one purchase" });
    expect(again).toMatchObject({ ok: true, data: { status: "unchanged" } });
    expect(await auditDetails("game-a")).toHaveLength(1);
  });

  it("refuses a reason too short to mean anything, naming the line and the event, and writes nothing", async () => {
    signInAs("manager", ["game-b"], { email: "manager@example.com" });
    const before = await current("game-b");

    const result = await updateCannedReasons({ tenant: "game-b", expectedUpdatedAt: before.updatedAt, close: "player abandoned the purchase\nok" });

    expect(result).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { close: ["Line 2: a reason needs 5 to 500 characters."] } } });
    expect((await current("game-b")).cannedReasons).toEqual({});
    expect(await auditDetails("game-b")).toEqual([]);
  });

  it("refuses a form rendered before someone else saved (one row, one version)", async () => {
    signInAs("manager", ["game-b"], { email: "manager@example.com" });
    const stale = (await current("game-b")).updatedAt;
    expect(await updateCannedReasons({ tenant: "game-b", expectedUpdatedAt: stale, close: "player abandoned the purchase" })).toMatchObject({ ok: true });

    const result = await updateCannedReasons({ tenant: "game-b", expectedUpdatedAt: stale, close: "something else entirely" });

    expect(result).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect((await current("game-b")).cannedReasons).toEqual({ close: ["player abandoned the purchase"] });
  });

  it("is a manager's setting: an agent is refused", async () => {
    signInAs("agent", ["game-a"]);
    const before = await current("game-a");
    expect(await updateCannedReasons({ tenant: "game-a", expectedUpdatedAt: before.updatedAt, close: "anything at all" })).toMatchObject({ ok: false, error: { code: "forbidden" } });
  });
});

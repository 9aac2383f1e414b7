import "server-only";
import { audit } from "@/lib/audit/record";
import { withTransaction } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { assertNever } from "@/lib/orders/machine";
import { DWELL_STATES, type DwellState } from "./durations";
import { ISO_MICROS } from "./tenant-settings";

export type SettingsChange =
  | { readonly field: "max_dwell_seconds"; readonly value: Readonly<Record<DwellState, number>> }
  | { readonly field: "unpaid_timeout_seconds"; readonly value: number }
  | { readonly field: "refund_approval_amount"; readonly value: number };

export type SettingsField = SettingsChange["field"];

export type SettingsUpdate =
  | { readonly status: "saved"; readonly before: unknown; readonly after: unknown; readonly updatedAt: string }
  /** The form held the current values: nothing written, no audit row. */
  | { readonly status: "unchanged"; readonly updatedAt: string };

interface Locked {
  readonly unpaid_timeout_seconds: number;
  readonly max_dwell_seconds: Record<string, number>;
  readonly refund_approval_amount: number;
  readonly currency: string;
  readonly matches: boolean;
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * One settings change, as one transaction: lock the row, refuse a stale form, write the new value,
 * and write its audit row (before and after) — so there is never a change without its audit row,
 * nor an audit row for a change that did not commit.
 *
 * `expectedUpdatedAt` is the row's updated_at as the form rendered it. If anyone saved since (in
 * any field: one row, one version), the change is refused rather than silently overwriting a
 * decision the user has not seen.
 */
export async function updateTenantSettings(tenantId: string, expectedUpdatedAt: string, change: SettingsChange, actor: string): Promise<SettingsUpdate> {
  return withTransaction(async (client) => {
    const { rows } = await client.query<Locked>(
      `SELECT s.unpaid_timeout_seconds, s.max_dwell_seconds, s.refund_approval_amount, t.currency, s.updated_at = $2::timestamptz AS matches
       FROM tenant_settings s JOIN tenants t ON t.id = s.tenant_id WHERE s.tenant_id = $1 FOR UPDATE OF s`,
      [tenantId, expectedUpdatedAt],
    );
    const row = rows[0];
    if (!row) throw new AppError("not-found", `No settings for ${tenantId}.`);
    if (!row.matches) {
      const { rows: last } = await client.query<{ actor: string; at: Date }>(
        `SELECT actor, created_at AS at FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY created_at DESC LIMIT 1`,
        [`tenant:${tenantId}`],
      );
      const who = last[0] ? ` (by ${last[0].actor.replace(/^staff:/, "")} at ${utc(last[0].at)})` : "";
      throw new AppError("conflict", `stale settings form for ${tenantId}: expected updated_at ${expectedUpdatedAt}`, {
        userMessage: `The settings of ${tenantId} were saved again since this page was opened${who}. Nothing was changed: look at the current values, then decide again.`,
      });
    }

    let before: unknown;
    let after: unknown;
    let assignment: string;
    let value: unknown;
    switch (change.field) {
      case "max_dwell_seconds": {
        const current = row.max_dwell_seconds;
        const changed = DWELL_STATES.filter((s) => current[s] !== change.value[s]);
        if (changed.length === 0) return { status: "unchanged", updatedAt: expectedUpdatedAt };
        before = Object.fromEntries(changed.map((s) => [s, current[s] ?? null]));
        after = Object.fromEntries(changed.map((s) => [s, change.value[s]]));
        // Merged into the stored object: keys this form does not edit are kept as they are.
        assignment = `max_dwell_seconds = max_dwell_seconds || $2::jsonb`;
        value = JSON.stringify(after);
        break;
      }
      case "unpaid_timeout_seconds":
        if (row.unpaid_timeout_seconds === change.value) return { status: "unchanged", updatedAt: expectedUpdatedAt };
        [before, after] = [row.unpaid_timeout_seconds, change.value];
        assignment = `unpaid_timeout_seconds = $2`;
        value = change.value;
        break;
      case "refund_approval_amount":
        if (row.refund_approval_amount === change.value) return { status: "unchanged", updatedAt: expectedUpdatedAt };
        [before, after] = [row.refund_approval_amount, change.value];
        assignment = `refund_approval_amount = $2`;
        value = change.value;
        break;
      default:
        return assertNever(change);
    }

    const { rows: updated } = await client.query<{ updatedAt: string }>(
      `UPDATE tenant_settings SET ${assignment}, updated_at = clock_timestamp() WHERE tenant_id = $1
       RETURNING to_char(updated_at AT TIME ZONE 'UTC', ${ISO_MICROS}) AS "updatedAt"`,
      [tenantId, value],
    );
    await audit(
      {
        actor,
        action: "settings.updated",
        tenantId,
        target: `tenant:${tenantId}`,
        detail: { field: change.field, before, after, ...(change.field === "refund_approval_amount" ? { currency: row.currency } : {}) },
      },
      client,
    );
    return { status: "saved", before, after, updatedAt: updated[0]!.updatedAt };
  });
}

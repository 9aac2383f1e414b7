import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import type { OrderState } from "@/lib/orders/machine";
import { storedTakeBackRules, type TakeBackRules } from "@/lib/orders/take-back";
import { storedCannedReasons, type CannedReasons } from "./canned-reasons";

export interface TenantSettingsView {
  readonly tenantId: string;
  readonly tenantName: string;
  readonly currency: string;
  readonly unpaidTimeoutSeconds: number;
  readonly maxDwellSeconds: Readonly<Partial<Record<OrderState, number>>>;
  /** Minor units of `currency`. */
  readonly refundApprovalAmount: number;
  /** Reasons the event forms offer, per event. */
  readonly cannedReasons: CannedReasons;
  /** Per kind of case, seconds until it is overdue (lib/cases). */
  readonly caseSlaSeconds: Readonly<Partial<Record<string, number>>>;
  /** Where the tenant's signed webhooks go (the channel hears of refund requests there). */
  readonly webhookUrl: string | null;
  /** Whether the worker answers store refund reviews itself before their deadline (lib/stores/reviews). */
  readonly refundReviewAutoSend: boolean;
  /** Players whose refunded share of spend is at or above this percentage are on the refund watch list; null: off. */
  readonly refundWatchPercent: number | null;
  /** The App Store app whose notifications the tenant accepts (issue 16); null: not connected. */
  readonly appleBundleId: string | null;
  readonly appleEnvironment: string | null;
  /** The Google Play app whose pushes and voided purchases the tenant takes (issue 16); nulls: not connected. */
  readonly googlePackageName: string | null;
  readonly googlePushAudience: string | null;
  readonly googlePushServiceAccount: string | null;
  /** What a confirmed refund does to each kind of line's goods (lib/orders/take-back.ts). */
  readonly takeBackRules: TakeBackRules;
  /** Where the worker asks the game to take goods back (rule `revoke`); null: not set, and those calls fail. */
  readonly revokeEndpointUrl: string | null;
  /**
   * The row's version for stale-edit checks: ISO 8601 with microseconds, exactly as stored (a Date
   * would drop the microseconds and never match again — which is also why this read is raw SQL:
   * Prisma hands timestamps over as Dates).
   */
  readonly updatedAt: string;
  /** The newest settings.updated audit row: who last saved, and when. */
  readonly lastChange: { readonly actor: string; readonly at: Date } | null;
}

export const ISO_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** A tenant's stored settings as the settings page and their update both read them (with the tenant's currency). */
export const storedSettingsRow = z.object({
  currency: z.string(),
  unpaidTimeoutSeconds: z.number(),
  maxDwellSeconds: z.record(z.string(), z.number()),
  refundApprovalAmount: z.number(),
  cannedReasons: storedCannedReasons,
  caseSlaSeconds: z.record(z.string(), z.number()),
  webhookUrl: z.string().nullable(),
  appleBundleId: z.string().nullable(),
  appleEnvironment: z.string().nullable(),
  refundReviewAutoSend: z.boolean(),
  refundWatchPercent: z.number().nullable(),
  googlePackageName: z.string().nullable(),
  googlePushAudience: z.string().nullable(),
  googlePushServiceAccount: z.string().nullable(),
  takeBackRules: storedTakeBackRules,
  revokeEndpointUrl: z.string().nullable(),
});

const settingsRow = storedSettingsRow.extend({
  tenantId: z.string(),
  tenantName: z.string(),
  updatedAt: z.string(),
  lastChange: z.object({ actor: z.string(), at: z.coerce.date() }).nullable(),
});

/** Settings of the tenants in a scope (tenant_settings' primary key; last change by the (action, target, created_at) index). */
export async function listTenantSettings(scope: readonly string[]): Promise<TenantSettingsView[]> {
  if (scope.length === 0) return [];
  return rows(
    getPool(),
    settingsRow,
    `SELECT s.tenant_id AS "tenantId", t.name AS "tenantName", t.currency, s.unpaid_timeout_seconds AS "unpaidTimeoutSeconds",
            s.max_dwell_seconds AS "maxDwellSeconds", s.refund_approval_amount AS "refundApprovalAmount",
            s.canned_reasons AS "cannedReasons", s.case_sla_seconds AS "caseSlaSeconds", s.webhook_url AS "webhookUrl",
            s.apple_bundle_id AS "appleBundleId", s.apple_environment AS "appleEnvironment", s.refund_review_auto_send AS "refundReviewAutoSend",
            s.refund_watch_percent AS "refundWatchPercent",
            s.google_package_name AS "googlePackageName", s.google_push_audience AS "googlePushAudience",
            s.google_push_service_account AS "googlePushServiceAccount",
            s.take_back_rules AS "takeBackRules", s.revoke_endpoint_url AS "revokeEndpointUrl",
            to_char(s.updated_at AT TIME ZONE 'UTC', ${ISO_MICROS}) AS "updatedAt",
            (SELECT json_build_object('actor', a.actor, 'at', a.created_at) FROM audit_events a
              WHERE a.action = 'settings.updated' AND a.target = 'tenant:' || s.tenant_id
              ORDER BY a.created_at DESC LIMIT 1) AS "lastChange"
     FROM tenant_settings s JOIN tenants t ON t.id = s.tenant_id
     WHERE s.tenant_id = ANY($1::text[])
     ORDER BY s.tenant_id`,
    [scope],
  ) as Promise<TenantSettingsView[]>;
}

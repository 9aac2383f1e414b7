import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { maybeOne, one } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { assertNever, ORDER_EVENTS } from "@/lib/orders/machine";
import { LINE_KINDS, type TakeBackRules } from "@/lib/orders/take-back";
import { EXCEPTION_KINDS, type ExceptionKind } from "@/lib/orders/types";
import type { AppleEnvironment } from "./apple-environments";
import type { CannedReasons } from "./canned-reasons";
import { DWELL_STATES, type DwellState } from "./durations";
import { ISO_MICROS, storedSettingsRow } from "./tenant-settings";

export type SettingsChange =
  | { readonly field: "max_dwell_seconds"; readonly value: Readonly<Record<DwellState, number>> }
  | { readonly field: "unpaid_timeout_seconds"; readonly value: number }
  | { readonly field: "refund_approval_amount"; readonly value: number }
  | { readonly field: "canned_reasons"; readonly value: CannedReasons }
  /** Per kind of case, how long it may wait (lib/cases): applies to cases filed from then on. */
  | { readonly field: "case_sla_seconds"; readonly value: Readonly<Record<ExceptionKind, number>> }
  /** Where signed webhooks go (the refund requests among them); null: nowhere. */
  | { readonly field: "webhook_url"; readonly value: string | null }
  /** Whether the worker answers store refund reviews itself before their deadline (lib/stores/reviews). */
  | { readonly field: "refund_review_auto_send"; readonly value: boolean }
  /** Players whose refunded share of spend is at or above this percentage are on the refund watch list; null: off. */
  | { readonly field: "refund_watch_percent"; readonly value: number | null }
  /** The App Store app whose signed notifications the tenant accepts (issue 16); nulls: not connected. */
  | { readonly field: "apple_store"; readonly value: AppleStoreSettings }
  /** The Google Play app whose pushes and voided purchases the tenant takes (issue 16); nulls: not connected. */
  | { readonly field: "google_play"; readonly value: GooglePlaySettings }
  /** What a confirmed refund does to each kind of line's goods, and where `revoke` calls go (issue 16). */
  | { readonly field: "take_back_rules"; readonly value: TakeBackSettings };

export interface AppleStoreSettings {
  readonly bundleId: string | null;
  readonly environment: AppleEnvironment | null;
}

export interface GooglePlaySettings {
  readonly packageName: string | null;
  /** The audience the Pub/Sub push subscription's OIDC token carries. */
  readonly pushAudience: string | null;
  /** The service account the push subscription authenticates as. */
  readonly pushServiceAccount: string | null;
}

export interface TakeBackSettings {
  /** Every kind's rule: the form holds all four, and the whole object is written. */
  readonly rules: TakeBackRules;
  /** null: no endpoint, and every `revoke` take-back fails until one is set. */
  readonly revokeEndpointUrl: string | null;
}

export type SettingsField = SettingsChange["field"];

export type SettingsUpdate =
  | { readonly status: "saved"; readonly before: unknown; readonly after: unknown; readonly updatedAt: string }
  /** The form held the current values: nothing written, no audit row. */
  | { readonly status: "unchanged"; readonly updatedAt: string };

const lockedRow = storedSettingsRow.extend({ matches: z.boolean() });

const lastSave = z.object({ actor: z.string(), at: z.string() });

/** What a settings change writes: the SQL assignment, and the before/after its audit row records. */
function planChange(row: z.output<typeof lockedRow>, change: SettingsChange): { assignment: string; value: unknown; before: unknown; after: unknown } | null {
  switch (change.field) {
    case "max_dwell_seconds": {
      const changed = DWELL_STATES.filter((s) => row.maxDwellSeconds[s] !== change.value[s]);
      if (changed.length === 0) return null;
      const after = Object.fromEntries(changed.map((s) => [s, change.value[s]]));
      // Merged into the stored object: keys this form does not edit are kept as they are.
      return {
        assignment: `max_dwell_seconds = max_dwell_seconds || $2::jsonb`,
        value: JSON.stringify(after),
        before: Object.fromEntries(changed.map((s) => [s, row.maxDwellSeconds[s] ?? null])),
        after,
      };
    }
    case "unpaid_timeout_seconds":
      if (row.unpaidTimeoutSeconds === change.value) return null;
      return { assignment: `unpaid_timeout_seconds = $2`, value: change.value, before: row.unpaidTimeoutSeconds, after: change.value };
    case "refund_approval_amount":
      if (row.refundApprovalAmount === change.value) return null;
      return { assignment: `refund_approval_amount = $2`, value: change.value, before: row.refundApprovalAmount, after: change.value };
    case "canned_reasons": {
      // The form holds every event's list, so the whole object is written; the audit row names the
      // events whose lists changed, each with its list before and after.
      const changed = ORDER_EVENTS.filter((e) => (row.cannedReasons[e] ?? []).join("\n") !== (change.value[e] ?? []).join("\n"));
      if (changed.length === 0) return null;
      return {
        assignment: `canned_reasons = $2::jsonb`,
        value: JSON.stringify(change.value),
        before: Object.fromEntries(changed.map((e) => [e, row.cannedReasons[e] ?? []])),
        after: Object.fromEntries(changed.map((e) => [e, change.value[e] ?? []])),
      };
    }
    case "case_sla_seconds": {
      const changed = EXCEPTION_KINDS.filter((k) => row.caseSlaSeconds[k] !== change.value[k]);
      if (changed.length === 0) return null;
      const after = Object.fromEntries(changed.map((k) => [k, change.value[k]]));
      return {
        assignment: `case_sla_seconds = case_sla_seconds || $2::jsonb`,
        value: JSON.stringify(after),
        before: Object.fromEntries(changed.map((k) => [k, row.caseSlaSeconds[k] ?? null])),
        after,
      };
    }
    case "webhook_url":
      if (row.webhookUrl === change.value) return null;
      return { assignment: `webhook_url = $2`, value: change.value, before: row.webhookUrl, after: change.value };
    case "refund_review_auto_send":
      if (row.refundReviewAutoSend === change.value) return null;
      return { assignment: `refund_review_auto_send = $2`, value: change.value, before: row.refundReviewAutoSend, after: change.value };
    case "refund_watch_percent":
      if (row.refundWatchPercent === change.value) return null;
      return { assignment: `refund_watch_percent = $2`, value: change.value, before: row.refundWatchPercent, after: change.value };
    case "apple_store": {
      const before = { bundleId: row.appleBundleId, environment: row.appleEnvironment };
      if (before.bundleId === change.value.bundleId && before.environment === change.value.environment) return null;
      return {
        assignment: `apple_bundle_id = $2::jsonb ->> 'bundleId', apple_environment = $2::jsonb ->> 'environment'`,
        value: JSON.stringify(change.value),
        before,
        after: change.value,
      };
    }
    case "google_play": {
      const before = { packageName: row.googlePackageName, pushAudience: row.googlePushAudience, pushServiceAccount: row.googlePushServiceAccount };
      if (before.packageName === change.value.packageName && before.pushAudience === change.value.pushAudience && before.pushServiceAccount === change.value.pushServiceAccount) {
        return null;
      }
      return {
        assignment: `google_package_name = $2::jsonb ->> 'packageName', google_push_audience = $2::jsonb ->> 'pushAudience',
                     google_push_service_account = $2::jsonb ->> 'pushServiceAccount'`,
        value: JSON.stringify(change.value),
        before,
        after: change.value,
      };
    }
    case "take_back_rules": {
      // The audit row names what changed only: the kinds whose rule changed, and the endpoint if it did.
      const kinds = LINE_KINDS.filter((k) => row.takeBackRules[k] !== change.value.rules[k]);
      const urlChanged = row.revokeEndpointUrl !== change.value.revokeEndpointUrl;
      if (kinds.length === 0 && !urlChanged) return null;
      const side = (rules: TakeBackRules, url: string | null) => ({
        ...(kinds.length > 0 ? { rules: Object.fromEntries(kinds.map((k) => [k, rules[k]])) } : {}),
        ...(urlChanged ? { revokeEndpointUrl: url } : {}),
      });
      return {
        assignment: `take_back_rules = $2::jsonb -> 'rules', revoke_endpoint_url = $2::jsonb ->> 'revokeEndpointUrl'`,
        value: JSON.stringify(change.value),
        before: side(row.takeBackRules, row.revokeEndpointUrl),
        after: side(change.value.rules, change.value.revokeEndpointUrl),
      };
    }
    default:
      return assertNever(change);
  }
}

/**
 * One settings change, as one transaction: lock the row, refuse a stale form, write the new value,
 * and write its audit row (before and after) — so there is never a change without its audit row,
 * nor an audit row for a change that did not commit.
 *
 * `expectedUpdatedAt` is the row's updated_at as the form rendered it. If anyone saved since (in
 * any field: one row, one version), the change is refused rather than silently overwriting a
 * decision the user has not seen. Raw SQL for the lock and the version: Prisma cannot lock a row,
 * and its Dates would drop the microseconds the version is compared at.
 */
export async function updateTenantSettings(tenantId: string, expectedUpdatedAt: string, change: SettingsChange, actor: string): Promise<SettingsUpdate> {
  return transaction(
    async ({ client, prisma }): Promise<SettingsUpdate> => {
      const row = await maybeOne(
        client,
        lockedRow,
        `SELECT s.unpaid_timeout_seconds AS "unpaidTimeoutSeconds", s.max_dwell_seconds AS "maxDwellSeconds",
                s.refund_approval_amount AS "refundApprovalAmount", s.canned_reasons AS "cannedReasons",
                s.case_sla_seconds AS "caseSlaSeconds", s.webhook_url AS "webhookUrl", s.refund_review_auto_send AS "refundReviewAutoSend",
                s.refund_watch_percent AS "refundWatchPercent", s.apple_bundle_id AS "appleBundleId", s.apple_environment AS "appleEnvironment",
                s.google_package_name AS "googlePackageName", s.google_push_audience AS "googlePushAudience",
                s.google_push_service_account AS "googlePushServiceAccount", s.take_back_rules AS "takeBackRules",
                s.revoke_endpoint_url AS "revokeEndpointUrl", t.currency, s.updated_at = $2::timestamptz AS matches
         FROM tenant_settings s JOIN tenants t ON t.id = s.tenant_id WHERE s.tenant_id = $1 FOR UPDATE OF s`,
        [tenantId, expectedUpdatedAt],
      );
      if (!row) throw new AppError("not-found");
      if (!row.matches) {
        const last = await maybeOne(
          client,
          lastSave,
          `SELECT actor, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') AS at FROM audit_events
           WHERE action = 'settings.updated' AND target = $1 ORDER BY created_at DESC LIMIT 1`,
          [`tenant:${tenantId}`],
        );
        throw new AppError("conflict", { kind: "settings-stale", tenant: tenantId, by: last?.actor.replace(/^staff:/, "") ?? null, at: last?.at ?? null });
      }

      const plan = planChange(row, change);
      if (!plan) return { status: "unchanged", updatedAt: expectedUpdatedAt };
      const { updatedAt } = await one(
        client,
        z.object({ updatedAt: z.string() }),
        `UPDATE tenant_settings SET ${plan.assignment}, updated_at = clock_timestamp() WHERE tenant_id = $1
         RETURNING to_char(updated_at AT TIME ZONE 'UTC', ${ISO_MICROS}) AS "updatedAt"`,
        [tenantId, plan.value],
      );
      await audit(
        {
          actor,
          action: "settings.updated",
          tenantId,
          target: `tenant:${tenantId}`,
          detail: { field: change.field, before: plan.before, after: plan.after, ...(change.field === "refund_approval_amount" ? { currency: row.currency } : {}) },
        },
        prisma,
      );
      return { status: "saved", before: plan.before, after: plan.after, updatedAt };
    },
    { prisma: true },
  );
}

// Canned reasons: per product and event, the reasons the console's event forms offer to pick from
// (tenant_settings.canned_reasons). A picked reason is still a reason: the same rule as a typed one
// (reasonInput), so a setting can never make a meaningless reason one click away. Pure: shared by
// the settings form, its action and the order page.
import { z } from "zod";
import { rolesTriggering } from "@/lib/auth/permissions";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH, reasonInput } from "@/lib/orders/console-event";
import { ORDER_EVENTS, type OrderEvent } from "@/lib/orders/machine";
import { because } from "@/lib/validation";
import { CASE_REASON_KINDS, type CaseReasonKind } from "./reason-kinds";

/** An order event's list, or a case action's (lib/settings/reason-kinds.ts). */
export type CannedReasonKey = OrderEvent | CaseReasonKind;
export type CannedReasons = Readonly<Partial<Record<CannedReasonKey, readonly string[]>>>;

/**
 * The events that take canned reasons: those some role may send from the console (the whitelist in
 * lib/auth/permissions.ts). A store's reverse-refund is sent by the store alone, so a list of reasons
 * for it would be offered nowhere.
 */
export const CANNED_REASON_EVENTS: readonly OrderEvent[] = ORDER_EVENTS.filter((event) => rolesTriggering(event).length > 0);

/** Every list a product can keep: the events', then the case actions' (resolve, dismiss, assign, record how a channel was told). */
export const CANNED_REASON_KEYS: readonly CannedReasonKey[] = [...CANNED_REASON_EVENTS, ...CASE_REASON_KINDS];

/** More than this and picking one is slower than typing; a select of 50 reasons helps nobody. */
export const MAX_CANNED_REASONS = 12;

/**
 * The stored value as the order page reads it. People edit it only through the settings form, but
 * a row written by hand must not break an order page: what is not a known event's list of valid
 * reasons is left out.
 */
export const storedCannedReasons = z
  .record(z.string(), z.unknown())
  .catch({})
  .transform((stored): CannedReasons => {
    const clean: Partial<Record<CannedReasonKey, string[]>> = {};
    for (const event of CANNED_REASON_KEYS) {
      const list = stored[event];
      if (!Array.isArray(list)) continue;
      const reasons = list.flatMap((r) => (reasonInput.safeParse(r).success ? [String(r).trim()] : []));
      if (reasons.length > 0) clean[event] = [...new Set(reasons)].slice(0, MAX_CANNED_REASONS);
    }
    return clean;
  });

/** One reason per line, as the settings form's textarea holds them. */
export function reasonsText(reasons: readonly string[] | undefined): string {
  return (reasons ?? []).join("\n");
}

/**
 * A textarea's lines as one event's canned reasons: blank lines dropped, repeats kept once, every
 * line a valid reason. Its problems name the line, so the form can say which one to fix.
 */
export const cannedReasonsText = z
  .string()
  .max(MAX_CANNED_REASONS * (MAX_REASON_LENGTH + 1))
  .transform((text) => text.split(/\r?\n/).map((line) => line.trim()))
  .superRefine((lines, ctx) => {
    lines.forEach((line, i) => {
      if (line !== "" && !reasonInput.safeParse(line).success) {
        ctx.addIssue({ code: "custom", ...because({ kind: "canned-reason-length", line: i + 1, min: MIN_REASON_LENGTH, max: MAX_REASON_LENGTH }) });
      }
    });
  })
  .transform((lines) => [...new Set(lines.filter((line) => line !== ""))])
  .refine((reasons) => reasons.length <= MAX_CANNED_REASONS, because({ kind: "too-many-canned-reasons", max: MAX_CANNED_REASONS }));

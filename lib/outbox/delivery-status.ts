// What a delivery is now, as every page shows it (the order timeline, the deliveries page): derived
// once from the outbox row, and the same rule as SQL for the deliveries page's status filter, so a
// filter never lists a row under a status the page would not show it in. Pure.
// delivery-status.integration.test.ts checks the two agree on every kind of row.
import { NO_WEBHOOK } from "./no-webhook";
import { isWebhookTopic } from "./topics";

export type OutboxDelivery = "delivered" | "no-webhook" | "dead" | "retrying" | "queued";

/**
 * The relay marks a message of a tenant without a webhook `delivered` with no attempt (so it is not
 * claimed again forever): to a reader that message was never sent, and must not say delivered.
 */
export function outboxDelivery(m: { readonly status: string; readonly attempts: number; readonly lastError: string | null }): OutboxDelivery {
  if (m.status === "delivered") return m.attempts === 0 && m.lastError === NO_WEBHOOK ? "no-webhook" : "delivered";
  if (m.status === "dead") return "dead";
  return m.attempts > 0 ? "retrying" : "queued";
}

/** The statuses, in the order the filter offers them. */
export const OUTBOX_DELIVERIES = ["queued", "retrying", "delivered", "dead", "no-webhook"] as const satisfies readonly OutboxDelivery[];

/**
 * The SQL condition on an outbox_messages row (alias `m`) for each status. `nw()` adds the parameter
 * holding NO_WEBHOOK and names it (called only by the conditions that use it: an unused parameter
 * has no type, and PostgreSQL refuses the statement). Each leads with m.status, so the (tenant_id, status, created_at, id) index
 * narrows the scan and the rest filters the few rows it walks.
 */
export const DELIVERY_CONDITION: Readonly<Record<OutboxDelivery, (nw: () => string) => string>> = {
  queued: () => `m.status = 'pending' AND m.attempts = 0`,
  retrying: () => `m.status = 'pending' AND m.attempts > 0`,
  delivered: (nw) => `m.status = 'delivered' AND NOT (m.attempts = 0 AND m.last_error IS NOT DISTINCT FROM ${nw()})`,
  "no-webhook": (nw) => `m.status = 'delivered' AND m.attempts = 0 AND m.last_error IS NOT DISTINCT FROM ${nw()}`,
  dead: () => `m.status = 'dead'`,
};

/** Why a person may not send a message again now: it is a store's answer (sent again from its review page), or it is still on its way. */
export type ResendRefusal = "not-a-webhook" | "on-its-way";

/**
 * Whether a person may send the message again, and if not why: only a webhook message, and only once
 * it is delivered (or not sent for want of a webhook) or dead, never while it is on its way. The
 * resend itself and the page that offers it both ask this.
 */
export function resendRefusal(topic: string, delivery: OutboxDelivery): ResendRefusal | null {
  if (!isWebhookTopic(topic)) return "not-a-webhook";
  return delivery === "queued" || delivery === "retrying" ? "on-its-way" : null;
}

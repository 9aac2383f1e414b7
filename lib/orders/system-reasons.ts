// The reasons the system writes into the logs when no person acts (the timeout job, the delivery
// coordinator). The logs keep them in English, as the API and the engineers read them; the console
// words them in the reader's language from the facts read back here. Made once: the writers call
// these functions, so the text the reader parses is the text they wrote. Pure.

export type SystemReason = { readonly kind: "unpaid-timeout"; readonly seconds: number } | { readonly kind: "granted-by-endpoint" };

/** The timeout job's reason for closing an order nobody paid (lib/jobs/timeout-close.ts). */
export function unpaidTimeoutReason(seconds: number): string {
  return `unpaid for more than ${seconds} s`;
}

/** The delivery coordinator's reason for a grant the tenant's grant endpoint made (lib/jobs/delivery-record.ts). */
export const GRANTED_BY_ENDPOINT_REASON = "granted through the grant endpoint";

const UNPAID = /^unpaid for more than (\d+) s$/;

/**
 * A reason the system wrote, as data; null for anything else (a person's words are shown as they
 * typed them). Only the system's own actors' reasons are read: a person may type the same words.
 */
export function systemReason(actor: string | null, reason: string | null): SystemReason | null {
  if (reason === null || actor === null || !actor.startsWith("system:")) return null;
  const unpaid = UNPAID.exec(reason);
  if (unpaid) return { kind: "unpaid-timeout", seconds: Number(unpaid[1]) };
  return reason === GRANTED_BY_ENDPOINT_REASON ? { kind: "granted-by-endpoint" } : null;
}

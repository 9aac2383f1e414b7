// What a console event form needs, and what it must send: pure rules shared by the form (to show
// the right fields) and the server action (to refuse anything else).
import type { OrderEvent } from "./machine";

/** Events whose bizKey is a fact from the payment channel, typed in by ops (DESIGN.md whitelist). */
export const CHANNEL_KEY_EVENTS: Readonly<Partial<Record<OrderEvent, string>>> = {
  pay: "the channel's payment transaction id",
  "confirm-refund": "the channel's refund receipt id",
  "reject-refund": "the channel's refund receipt id",
};

export const MIN_REASON_LENGTH = 5;

/**
 * The bizKey a console event is recorded with. Channel facts use the channel's own id, so the real
 * callback arriving later is a duplicate; everything else uses the form's idempotency key, so a
 * double-click is a duplicate and never a second change.
 */
export function consoleBizKey(event: OrderEvent, formKey: string, channelKey: string | undefined): string {
  return CHANNEL_KEY_EVENTS[event] ? (channelKey ?? "") : `console:${formKey}`;
}

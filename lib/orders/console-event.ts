// What a console event form needs, and what it must send: pure rules shared by the form (to show
// the right fields) and the server action (to refuse anything else).
import { z } from "zod";
import type { OrderEvent } from "./machine";

/** Events whose bizKey is a fact from the payment channel, typed in by ops (DESIGN.md whitelist). */
export const CHANNEL_KEY_EVENTS: readonly OrderEvent[] = ["pay", "confirm-refund", "reject-refund"];

export function needsChannelKey(event: OrderEvent): boolean {
  return CHANNEL_KEY_EVENTS.includes(event);
}

export const MIN_REASON_LENGTH = 5;
export const MAX_REASON_LENGTH = 500;

/** The reason every console change is recorded with: meaningful (5+ characters), not an essay. */
export const reasonInput = z.string().trim().min(MIN_REASON_LENGTH).max(MAX_REASON_LENGTH);

/**
 * The bizKey a console event is recorded with. Channel facts use the channel's own id, so the real
 * callback arriving later is a duplicate; everything else uses the form's idempotency key, so a
 * double-click is a duplicate and never a second change.
 */
export function consoleBizKey(event: OrderEvent, formKey: string, channelKey: string | undefined): string {
  return needsChannelKey(event) ? (channelKey ?? "") : `console:${formKey}`;
}

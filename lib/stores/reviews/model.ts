// Refund reviews (issue 16, item 5): before a store decides a player's refund it may ask us what we
// know — Apple's CONSUMPTION_REQUEST, Google's refund review — and it listens only until a deadline.
// Pure: the review's statuses, its deadline, and whether an answer may still be sent.
import type { StoreName } from "@/lib/orders/store-names";
import { CONSUMPTION_DEADLINE_MS } from "@/lib/stores/apple/model";

/**
 * refund_reviews.status (the migration's CHECK says the same). `sending`: the answer is in the
 * outbox; `sent`: the store took it; `failed`: the store refused it, could not be reached, or could
 * not be called for want of a working key (it may be sent again before the deadline); `expired`: the
 * deadline passed with no answer delivered. What a person reads is derived from these (review-state.ts).
 */
export const REVIEW_STATUSES = ["open", "sending", "sent", "failed", "expired"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * How long a store listens after it asked. Apple documents 12 hours; Google's we take as 24.
 * Only Apple asks questions an API can answer (Send Consumption Information). Google Play has no such
 * call: it decides the player's request itself, and what the product can still do before the
 * deadline is in the Play Console (refund the order there); its decision reaches the ledger as a
 * voided purchase. So a Google review has a deadline and no answer to send from the console.
 */
export const REVIEW_DEADLINE_MS: Readonly<Record<StoreName, number>> = { appstore: CONSUMPTION_DEADLINE_MS, googleplay: 24 * 3_600_000 };


/** The worker's name in the audit log when it answers for a tenant that opted in, or expires a review. */
export const REVIEW_SYSTEM_ACTOR = "system:refund-reviews";

/** For tenants that opted in, the worker answers an open review once this little time is left. */
export const AUTO_SEND_LEAD_MS = 3_600_000;

/** The relay's note on an answer it did not send because the deadline had passed. */
export const PAST_DEADLINE = "not sent: the store's deadline had passed";

export type SendCheck = "ok" | "answered" | "expired";

/**
 * Whether an answer may go out now: only from open or failed (a failed answer may be tried again),
 * and never at or after the deadline — the store would not read it, and our record would say we
 * answered when we did not.
 */
export function sendCheck(review: { readonly status: ReviewStatus; readonly deadlineAt: Date }, now: Date): SendCheck {
  if (review.status !== "open" && review.status !== "failed") return review.status === "expired" ? "expired" : "answered";
  return now.getTime() >= review.deadlineAt.getTime() ? "expired" : "ok";
}

/** What the outbox carries for an answer: where it goes, exactly what is sent, and until when. */
export interface ReviewAnswerMessage {
  readonly reviewId: number;
  readonly store: StoreName;
  readonly url: string;
  readonly body: unknown;
  /** ISO 8601: the relay sends nothing at or after it. */
  readonly deadlineAt: string;
}

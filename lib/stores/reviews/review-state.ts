// What a refund review is now, derived once from its row and the clock (issue 29, items 4 and 5):
// the list, the review page and the overview's deadline warning all read this, so no page can say
// "Sending" above a reason the answer was not sent. Pure, apart from reading the stored error back.
import type { StoreName } from "@/lib/orders/store-names";
import { sendCheck, type ReviewStatus } from "./model";
import { notSentReason, type NotSentReason } from "./not-sent";

/**
 * What a person is told. `retrying`: in the outbox, the last attempt refused or unreachable, tried
 * again before the deadline. `not-sent`: it cannot go out as things are (stored `failed`, or a key
 * problem recorded on an answer still queued) — a person must act. `expired`: the deadline passed
 * with nothing delivered, whether or not the worker has marked it yet.
 */
export const SHOWN_STATUSES = ["open", "sending", "retrying", "sent", "not-sent", "expired"] as const;
export type ShownStatus = (typeof SHOWN_STATUSES)[number];

/** Less time left than this, with no answer delivered, is a warning on the list and the overview. */
export const NEAR_DEADLINE_MS = 3 * 3_600_000;

/** Stored statuses that may still need something before the deadline: the queries' filter, in one place. */
export const UNSETTLED_STATUSES = ["open", "sending", "failed"] as const satisfies readonly ReviewStatus[];

/** Why an answer has not reached the store: ours to word (a key problem, the deadline), or what the store or the network said. */
export type ReviewProblem = NotSentReason | { readonly kind: "store-error"; readonly error: string };

export interface ReviewState {
  readonly status: ShownStatus;
  readonly problem: ReviewProblem | null;
  /** Nothing delivered and the deadline ahead: someone (or the worker) still has to get an answer to the store. */
  readonly awaiting: boolean;
  /** Awaiting, with less than NEAR_DEADLINE_MS left. */
  readonly nearDeadline: boolean;
  /**
   * Whether the console can send (again): only Apple takes answers through an API; Google Play's
   * review is decided in the Play Console (lib/stores/reviews/model.ts says why).
   */
  readonly answerable: boolean;
}

export interface ReviewStateFacts {
  readonly store: StoreName;
  readonly status: ReviewStatus;
  readonly deadlineAt: Date;
  readonly lastError: string | null;
}

export function reviewState(review: ReviewStateFacts, now: Date): ReviewState {
  const status = shownStatus(review, now);
  const left = review.deadlineAt.getTime() - now.getTime();
  const awaiting = status === "open" || status === "sending" || status === "retrying" || status === "not-sent";
  return {
    status,
    problem: problemOf(status, review.lastError),
    awaiting,
    nearDeadline: awaiting && left < NEAR_DEADLINE_MS,
    answerable: review.store === "appstore" && sendCheck(review, now) === "ok",
  };
}

function shownStatus(review: ReviewStateFacts, now: Date): ShownStatus {
  if (review.status === "sent") return "sent";
  // The relay never sends at or after the deadline, so an answer not delivered by then never will be.
  if (review.status === "expired" || now.getTime() >= review.deadlineAt.getTime()) return "expired";
  if (review.status === "failed") return "not-sent";
  if (review.status === "sending") {
    if (review.lastError === null) return "sending";
    // A key problem cannot go away by trying again: only a person can fix it.
    return notSentReason(review.lastError) ? "not-sent" : "retrying";
  }
  return "open";
}

function problemOf(status: ShownStatus, lastError: string | null): ReviewProblem | null {
  if (status === "expired") return { kind: "past-deadline" };
  if (lastError === null || (status !== "not-sent" && status !== "retrying")) return null;
  return notSentReason(lastError) ?? { kind: "store-error", error: lastError };
}

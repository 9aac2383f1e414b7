import "server-only";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { snapshot } from "@/lib/db/transaction";
import type { StoreName } from "@/lib/orders/store-names";
import { API_KEYS_ENV } from "@/lib/stores/apple/server-api-keys";
import { prefillAppleAnswer, type AppleConsumptionAnswer, type ReviewFacts } from "@/lib/stores/reviews/apple-answer";
import { findReview } from "@/lib/stores/reviews/find-review";
import { listRefundReviews } from "@/lib/stores/reviews/list-reviews";
import { reviewFacts } from "@/lib/stores/reviews/review-facts";
import { reviewState, type ReviewState, type ShownStatus } from "@/lib/stores/reviews/review-state";

// The refund review pages' read models (issue 16, item 5; issue 29, items 4 and 5): the deadline
// queue, and one review with the answer it makes. What a review is now (its status, why an answer
// has not reached the store, the time left, whether it can be sent) is derived here, once, by
// review-state.ts: the browser never loads those rules (they read the App Store's server-only
// modules), and no page can word a status the data does not hold.

/** What names a review, in the list and on its page: which store asked about which purchase, when. */
interface RefundReviewHead {
  readonly id: number;
  readonly tenantId: string;
  readonly store: StoreName;
  readonly transactionId: string;
  readonly orderNo: string | null;
  readonly playerId: string | null;
  readonly requestedAt: Date;
}

/** A row of the deadline queue, as the list shows it. */
export interface RefundReviewListItem extends RefundReviewHead {
  /** Seconds until the deadline as the database measured it; negative once it has passed. */
  readonly secondsLeft: number;
  readonly state: Pick<ReviewState, "status" | "awaiting" | "nearDeadline">;
}

/** The list page: what still waits first, soonest deadline on top (listRefundReviews's order). */
export interface RefundReviewsModel {
  readonly reviews: readonly RefundReviewListItem[];
}

export async function readRefundReviews(staff: Staff, now = new Date()): Promise<RefundReviewsModel> {
  const found = await listRefundReviews(staff.tenantIds, undefined, now);
  return {
    reviews: found.map((r) => ({
      id: r.id,
      tenantId: r.tenantId,
      store: r.store,
      transactionId: r.transactionId,
      orderNo: r.orderNo,
      playerId: r.playerId,
      requestedAt: r.requestedAt,
      secondsLeft: r.secondsLeft,
      state: { status: r.state.status, awaiting: r.state.awaiting, nearDeadline: r.state.nearDeadline },
    })),
  };
}

/**
 * Which answer the review page's answer section is about, as the status says: the one the store
 * took, the one on its way, none that got there, or — while none was sent — the ledger's, prefilled.
 */
export type AnswerHeading = "prefilled" | "queued" | "sent" | "notDelivered";

const ANSWER_HEADING: Readonly<Record<ShownStatus, AnswerHeading>> = {
  open: "prefilled",
  sending: "queued",
  retrying: "queued",
  sent: "sent",
  "not-sent": "notDelivered",
  expired: "notDelivered",
};

/** One review page: what the store asked, what the ledger holds, and the answer they make. */
export interface RefundReviewModel {
  readonly review: RefundReviewHead & {
    readonly reason: string | null;
    readonly deadlineAt: Date;
    readonly answerUrl: string | null;
    readonly answeredBy: string | null;
    readonly answeredAt: Date | null;
  };
  /** One measurement for the time left and the deadline's "in …" beside it; negative once it has passed. */
  readonly secondsLeft: number;
  /** What the review is now (review-state.ts): the badge, the notice and the form all follow it. */
  readonly state: ReviewState;
  readonly answerHeading: AnswerHeading;
  /** The ledger's facts the page lists: the order's lines as delivered, the player's lifetime money. */
  readonly facts: Pick<ReviewFacts, "lines" | "money">;
  /** The App Store answer as the ledger would make it now (consent unconfirmed); null for Google Play, which takes none. */
  readonly prefilled: AppleConsumptionAnswer | null;
  /** The answer queued or sent, exactly as it went out; null while none was. */
  readonly answer: AppleConsumptionAnswer | null;
  /** The review can be answered (again) now and the viewer may send it (the action checks both again). */
  readonly mayAnswer: boolean;
  /** The setting that holds the App Store keys, named by the notices about a missing or broken key. */
  readonly keysEnv: string;
}

/**
 * The review page of a review the scope rule (refundReviewScope) found in the caller's products, or
 * null when it is gone since. The review and the ledger's facts for it are read in one snapshot.
 */
export async function readRefundReview(staff: Staff, review: { readonly id: number; readonly tenantId: string }, now = new Date()): Promise<RefundReviewModel | null> {
  const read = await snapshot(async ({ client }) => {
    const found = await findReview(client, review.id);
    if (!found) return null;
    return { found, facts: await reviewFacts(client, found) };
  });
  if (!read) return null;
  const { found: r, facts } = read;
  const state = reviewState(r, now);
  return {
    review: {
      id: r.id,
      tenantId: r.tenantId,
      store: r.store,
      transactionId: r.transactionId,
      orderNo: r.orderNo,
      playerId: r.playerId,
      reason: r.reason,
      requestedAt: r.requestedAt,
      deadlineAt: r.deadlineAt,
      answerUrl: r.answerUrl,
      answeredBy: r.answeredBy,
      answeredAt: r.answeredAt,
    },
    secondsLeft: Math.floor((r.deadlineAt.getTime() - now.getTime()) / 1000),
    state,
    answerHeading: ANSWER_HEADING[state.status],
    facts: { lines: facts.lines, money: facts.money },
    prefilled: r.store === "appstore" ? prefillAppleAnswer(facts, false) : null,
    // Stored by sendReviewAnswer from an AppleConsumptionAnswer, field for field.
    answer: (r.answer as AppleConsumptionAnswer | null) ?? null,
    mayAnswer: state.answerable && can(staff.role, "orders:event"),
    keysEnv: API_KEYS_ENV,
  };
}

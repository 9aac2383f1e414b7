import { describe, expect, it } from "vitest";
import { describeAuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { PAST_DEADLINE } from "./model";
import { NEAR_DEADLINE_MS, reviewState, type ReviewStateFacts } from "./review-state";

// Issue 29, items 4 and 5: one status, derived once from the row and the clock.
const now = new Date("2026-12-05T03:00:00Z");
const HOUR = 3_600_000;
const NO_KEY = describeAuthorizationProblem({ kind: "key-not-configured" });
const review = (r: Partial<ReviewStateFacts>): ReviewStateFacts => ({ store: "appstore", status: "open", deadlineAt: new Date(now.getTime() + 5 * HOUR), lastError: null, ...r });

describe("reviewState", () => {
  it("an answer that cannot go out for want of a key is not sent, with the reason — never 'sending'", () => {
    expect(reviewState(review({ status: "sending", lastError: NO_KEY }), now)).toMatchObject({ status: "not-sent", problem: { kind: "key-not-configured" }, awaiting: true });
    // Settled by the relay: not sent, and it may be sent again once the key is there.
    expect(reviewState(review({ status: "failed", lastError: NO_KEY }), now)).toMatchObject({ status: "not-sent", problem: { kind: "key-not-configured" }, answerable: true });
  });

  it("an answer on its way is sending; after a refused attempt it is retrying, with what the store said", () => {
    expect(reviewState(review({ status: "sending" }), now)).toMatchObject({ status: "sending", problem: null, answerable: false });
    expect(reviewState(review({ status: "sending", lastError: "HTTP 503: unavailable" }), now)).toMatchObject({
      status: "retrying",
      problem: { kind: "store-error", error: "HTTP 503: unavailable" },
    });
    expect(reviewState(review({ status: "failed", lastError: "HTTP 400: bad" }), now)).toMatchObject({ status: "not-sent", problem: { kind: "store-error", error: "HTTP 400: bad" } });
  });

  it("sent is sent, and asks nothing more of anyone", () => {
    expect(reviewState(review({ status: "sent", deadlineAt: new Date(now.getTime() + HOUR) }), now)).toEqual({
      status: "sent",
      problem: null,
      awaiting: false,
      nearDeadline: false,
      answerable: false,
    });
  });

  it("past the deadline, whatever is stored and whether or not the worker noticed, nothing delivered is expired", () => {
    const passed = new Date(now.getTime() - 1);
    for (const status of ["open", "sending", "failed", "expired"] as const) {
      expect(reviewState(review({ status, deadlineAt: passed, lastError: status === "expired" ? PAST_DEADLINE : null }), now)).toMatchObject({
        status: "expired",
        problem: { kind: "past-deadline" },
        awaiting: false,
        nearDeadline: false,
        answerable: false,
      });
    }
  });

  it("is near its deadline with less than NEAR_DEADLINE_MS left, in either store", () => {
    const close = new Date(now.getTime() + 39 * 60_000);
    const far = new Date(now.getTime() + NEAR_DEADLINE_MS + 1);
    expect(reviewState(review({ store: "googleplay", deadlineAt: close }), now)).toMatchObject({ status: "open", awaiting: true, nearDeadline: true });
    expect(reviewState(review({ store: "appstore", deadlineAt: close }), now)).toMatchObject({ status: "open", nearDeadline: true, answerable: true });
    expect(reviewState(review({ store: "appstore", deadlineAt: far }), now).nearDeadline).toBe(false);
  });

  it("a Google Play review is never answerable from the console: Google takes no answer through an API", () => {
    expect(reviewState(review({ store: "googleplay" }), now)).toMatchObject({ status: "open", answerable: false });
  });
});

import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { sendRefundReviewAnswer } from "@/app/[locale]/(console)/refund-reviews/actions/send-review-answer";
import { GET as getReview } from "@/app/api/console/refund-reviews/[id]/route";
import { GET as getList } from "@/app/api/console/refund-reviews/route";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { describeAuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { API_KEYS_ENV } from "@/lib/stores/apple/server-api-keys";
import type { StoreName } from "@/lib/orders/store-names";
import type { ReviewStatus } from "@/lib/stores/reviews/model";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import { deliveredStoreOrder } from "@/lib/test/store-orders";
import type { RefundReviewModel, RefundReviewsModel } from "./refund-reviews";

// The refund review pages' JSON routes: the deadline queue of the caller's products only, and one
// review whose status, time left and answer are what its row says (an answer that did not reach the
// store is never "sent"); another product's review is answered as a missing one, with nothing read.

useFreshDatabase();

const HOME = "rr-read-home";
const OTHER = "rr-read-other";
const HOUR = 3_600_000;
const NO_KEY = describeAuthorizationProblem({ kind: "key-not-configured" });

let order: { id: number; orderNo: string };

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(HOME));
  await ensureTenant(getPool(), tenantSpec(OTHER));
  order = await deliveredStoreOrder(HOME, `txn-${randomUUID()}`);
});

async function insertReview(spec: {
  tenantId?: string;
  store?: StoreName;
  status?: ReviewStatus;
  leftMs: number;
  lastError?: string | null;
  answeredBy?: string | null;
  orderId?: number | null;
}): Promise<number> {
  const answered = spec.answeredBy ? { customerConsented: true, deliveryStatus: 0, refundPreference: 2 } : undefined;
  const review = await getPrisma().refundReview.create({
    data: {
      tenantId: spec.tenantId ?? HOME,
      store: spec.store ?? "appstore",
      requestId: randomUUID(),
      transactionId: `txn-${randomUUID().slice(0, 8)}`,
      orderId: spec.orderId === undefined ? order.id : spec.orderId,
      reason: "UNINTENDED_PURCHASE",
      requestedAt: new Date(Date.now() - HOUR),
      deadlineAt: new Date(Date.now() + spec.leftMs),
      status: spec.status ?? "open",
      lastError: spec.lastError ?? null,
      answeredBy: spec.answeredBy ?? null,
      answeredAt: spec.answeredBy ? new Date() : null,
      answerUrl: spec.answeredBy ? "https://api.storekit.example/inApps/v1/transactions/consumption/x" : null,
      ...(answered ? { answer: answered } : {}),
    },
  });
  return Number(review.id);
}

async function list(): Promise<{ status: number; model: RefundReviewsModel | null }> {
  const response = await getList(new NextRequest("http://localhost/api/console/refund-reviews"), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<RefundReviewsModel>(await response.text()) : null };
}

async function read(id: string): Promise<{ status: number; text: string }> {
  const response = await getReview(new NextRequest(`http://localhost/api/console/refund-reviews/${encodeURIComponent(id)}`), { params: Promise.resolve({ id }) });
  return { status: response.status, text: await response.text() };
}

async function review(id: number): Promise<RefundReviewModel> {
  const { status, text } = await read(String(id));
  expect(status, text).toBe(200);
  return superjson.parse<RefundReviewModel>(text);
}

describe("GET /api/console/refund-reviews", () => {
  it("lists the caller's products' reviews only, what still waits first, soonest deadline first, with the status derived", async () => {
    const later = await insertReview({ leftMs: 10 * HOUR });
    const soon = await insertReview({ leftMs: HOUR });
    const sent = await insertReview({ status: "sent", leftMs: 5 * HOUR, answeredBy: "staff:agent@example.com" });
    const elsewhere = await insertReview({ tenantId: OTHER, leftMs: HOUR });

    signInAs("agent", [HOME]);
    const { model } = await list();
    const ids = model!.reviews.map((r) => r.id);
    expect(ids).not.toContain(elsewhere);
    expect(ids.indexOf(soon)).toBeLessThan(ids.indexOf(later));
    expect(ids.indexOf(later)).toBeLessThan(ids.indexOf(sent));
    const row = model!.reviews.find((r) => r.id === soon)!;
    expect(row).toMatchObject({ tenantId: HOME, store: "appstore", orderNo: order.orderNo, state: { status: "open", awaiting: true, nearDeadline: true } });
    expect(row.requestedAt).toBeInstanceOf(Date);
    expect(row.secondsLeft).toBeGreaterThan(HOUR / 1000 - 60);
    expect(model!.reviews.find((r) => r.id === sent)!.state).toEqual({ status: "sent", awaiting: false, nearDeadline: false });

    signInAs("manager", [OTHER]);
    expect((await list()).model!.reviews.map((r) => r.id)).toEqual([elsewhere]);
  });

  it("refuses an admin, who holds no order permission, and a caller with no session", async () => {
    signInAs("admin", [HOME]);
    expect((await list()).status).toBe(403);
    signOut();
    expect((await list()).status).toBe(401);
  });
});

describe("GET /api/console/refund-reviews/{id}", () => {
  it("gives an open App Store review its prefilled answer, the ledger's facts and the form, with dates as dates", async () => {
    const id = await insertReview({ leftMs: 11 * HOUR });
    signInAs("agent", [HOME]);
    const m = await review(id);
    expect(m.review).toMatchObject({ id, tenantId: HOME, store: "appstore", orderNo: order.orderNo, reason: "UNINTENDED_PURCHASE", answeredBy: null });
    expect(m.review.deadlineAt).toBeInstanceOf(Date);
    expect(m.state).toEqual({ status: "open", problem: null, awaiting: true, nearDeadline: false, answerable: true });
    expect(m.answerHeading).toBe("prefilled");
    expect(m.secondsLeft).toBeGreaterThan(11 * 3_600 - 60);
    expect(m.facts.lines.every((l) => l.delivered === l.quantity)).toBe(true);
    expect(m.facts.money).toEqual([{ currency: "CNY", paid: 6_00, refunded: 0 }]);
    expect(m.prefilled).toMatchObject({ customerConsented: false, deliveryStatus: 0, platform: 1 });
    expect(m.answer).toBeNull();
    expect(m.mayAnswer).toBe(true);
    expect(m.keysEnv).toBe(API_KEYS_ENV);
  });

  it("after an answer is sent, says it is on its way — not sent — and offers no second send", async () => {
    const id = await insertReview({ leftMs: 11 * HOUR });
    signInAs("agent", [HOME]);
    expect(await sendRefundReviewAnswer({ reviewId: id, customerConsented: true, refundPreference: 2 })).toMatchObject({ ok: true, data: { result: "queued" } });
    const m = await review(id);
    expect(m.state.status).toBe("sending");
    expect(m.answerHeading).toBe("queued");
    expect(m.review.answeredBy).toBe("staff:agent@example.com");
    expect(m.answer).toMatchObject({ customerConsented: true, refundPreference: 2 });
    expect(m.mayAnswer).toBe(false);
  });

  it("says an answer that could not go out is not sent, why, and that it may be sent again; a passed deadline is expired", async () => {
    signInAs("agent", [HOME]);
    const failed = await review(await insertReview({ status: "failed", leftMs: 5 * HOUR, lastError: NO_KEY, answeredBy: "staff:agent@example.com" }));
    expect(failed.state).toMatchObject({ status: "not-sent", problem: { kind: "key-not-configured" }, answerable: true });
    expect(failed.answerHeading).toBe("notDelivered");
    expect(failed.answer).toMatchObject({ customerConsented: true });
    expect(failed.mayAnswer).toBe(true);

    // The relay has not settled it yet, but a key problem is one only a person can fix.
    const stuck = await review(await insertReview({ status: "sending", leftMs: 5 * HOUR, lastError: NO_KEY, answeredBy: "staff:agent@example.com" }));
    expect(stuck.state).toMatchObject({ status: "not-sent", answerable: false });
    expect(stuck.mayAnswer).toBe(false);

    const retrying = await review(await insertReview({ status: "sending", leftMs: 5 * HOUR, lastError: "HTTP 503: unavailable", answeredBy: "staff:agent@example.com" }));
    expect(retrying.state).toMatchObject({ status: "retrying", problem: { kind: "store-error", error: "HTTP 503: unavailable" } });
    expect(retrying.answerHeading).toBe("queued");

    const expired = await review(await insertReview({ leftMs: -HOUR }));
    expect(expired.state).toMatchObject({ status: "expired", problem: { kind: "past-deadline" }, awaiting: false, answerable: false });
    expect(expired.answerHeading).toBe("notDelivered");
    expect(expired.mayAnswer).toBe(false);

    const sent = await review(await insertReview({ status: "sent", leftMs: 5 * HOUR, answeredBy: "staff:agent@example.com" }));
    expect(sent.state).toMatchObject({ status: "sent", problem: null });
    expect(sent.answerHeading).toBe("sent");
  });

  it("gives a Google Play review no Apple answer and no form", async () => {
    signInAs("manager", [HOME]);
    const m = await review(await insertReview({ store: "googleplay", leftMs: 39 * 60_000 }));
    expect(m.state).toMatchObject({ status: "open", awaiting: true, nearDeadline: true, answerable: false });
    expect(m.prefilled).toBeNull();
    expect(m.mayAnswer).toBe(false);
  });

  it("answers a review of another product exactly as a missing one, audited, and an id that names none as missing", async () => {
    const elsewhere = await insertReview({ tenantId: OTHER, leftMs: HOUR, orderId: null });
    signInAs("manager", [HOME]);
    const other = await read(String(elsewhere));
    const missing = await read("999999999");
    expect([other.status, missing.status]).toEqual([404, 404]);
    expect(JSON.parse(other.text)).toEqual(JSON.parse(missing.text));
    expect(JSON.parse(other.text)).toEqual({ error: { code: "not-found", message: expect.any(String) } });
    expect(await getPrisma().auditEvent.count({ where: { action: "access.denied", target: `refund-review:${elsewhere}` } })).toBe(1);

    const denied = () => getPrisma().auditEvent.count({ where: { action: "access.denied" } });
    const before = await denied();
    for (const id of ["abc", "0", "-1", "1e3", "12.5", "99999999999999999999"]) expect((await read(id)).status, id).toBe(404);
    expect(await denied()).toBe(before);
  });

  it("refuses an admin and a caller with no session", async () => {
    const id = await insertReview({ leftMs: HOUR });
    signInAs("admin", [HOME]);
    expect((await read(String(id))).status).toBe(403);
    signOut();
    expect((await read(String(id))).status).toBe(401);
  });
});

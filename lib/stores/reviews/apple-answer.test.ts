import { describe, expect, it } from "vitest";
import { accountTenure, appleAnswerUrl, deliveryStatusOf, lifetimeDollars, prefillAppleAnswer, type ReviewFacts } from "./apple-answer";
import { sendCheck } from "./model";

const ASKED = new Date(Date.UTC(2026, 11, 1, 12));
const daysBefore = (days: number) => new Date(ASKED.getTime() - days * 86_400_000);

const DELIVERED: ReviewFacts = {
  lines: [
    { sku: "gems-60", quantity: 60, delivered: 60 },
    { sku: "skin-cat", quantity: 1, delivered: 1 },
  ],
  deliveryFailed: false,
  money: [{ currency: "USD", paid: 12_99, refunded: 0 }],
  firstOrderAt: daysBefore(40),
  accountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
  requestedAt: ASKED,
};

describe("prefillAppleAnswer: the answer to a consumption request, from the ledger", () => {
  it("a fully delivered order of a USD player of 40 days: delivered, tenure 30–90 days, $0.01–$49.99 bought, $0 refunded", () => {
    expect(prefillAppleAnswer(DELIVERED, true)).toEqual({
      customerConsented: true,
      consumptionStatus: 0,
      platform: 1,
      sampleContentProvided: false,
      deliveryStatus: 0,
      appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
      accountTenure: 4,
      playTime: 0,
      lifetimeDollarsRefunded: 1,
      lifetimeDollarsPurchased: 2,
      userStatus: 0,
      refundPreference: 3,
    });
  });

  it("consent is what the caller says, never assumed; no token is sent as an empty string", () => {
    const answer = prefillAppleAnswer({ ...DELIVERED, accountToken: null }, false);
    expect(answer.customerConsented).toBe(false);
    expect(answer.appAccountToken).toBe("");
  });

  it("a line granted short is not delivered, and then we prefer the refund be granted", () => {
    const short = { ...DELIVERED, lines: [{ sku: "gems-60", quantity: 60, delivered: 30 }] };
    expect(prefillAppleAnswer(short, true)).toMatchObject({ deliveryStatus: 5, refundPreference: 1 });
  });
});

describe("the fields' rules", () => {
  it("deliveryStatus: every line in full is 0; a failed grant endpoint is a server outage (3); otherwise another reason (5); no lines is not delivered", () => {
    expect(deliveryStatusOf(DELIVERED)).toBe(0);
    expect(deliveryStatusOf({ lines: [{ sku: "a", quantity: 2, delivered: 1 }], deliveryFailed: true })).toBe(3);
    expect(deliveryStatusOf({ lines: [{ sku: "a", quantity: 2, delivered: 0 }], deliveryFailed: false })).toBe(5);
    expect(deliveryStatusOf({ lines: [], deliveryFailed: false })).toBe(5);
  });

  it("lifetime dollars: zero is $0 (1); USD by Apple's bucket edges; another currency with money in it, or no known order, is undeclared (0)", () => {
    const usd = (amount: number) => lifetimeDollars([{ currency: "USD", amount }]);
    expect(lifetimeDollars([])).toBe(0);
    expect(lifetimeDollars([{ currency: "CNY", amount: 0 }])).toBe(1);
    expect([usd(1), usd(49_99), usd(50_00), usd(99_99), usd(100_00), usd(499_99), usd(500_00), usd(999_99), usd(1000_00), usd(1999_99), usd(2000_00)]).toEqual([
      2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7,
    ]);
    expect(lifetimeDollars([{ currency: "USD", amount: 30_00 }, { currency: "USD", amount: 30_00 }])).toBe(3);
    expect(lifetimeDollars([{ currency: "CNY", amount: 128_00 }])).toBe(0);
    expect(lifetimeDollars([{ currency: "USD", amount: 10_00 }, { currency: "CNY", amount: 1 }])).toBe(0);
  });

  it("account tenure: from the first order to the request, by Apple's day buckets; no order is undeclared", () => {
    expect(accountTenure(null, ASKED)).toBe(0);
    expect([0, 2.9, 3, 9.9, 10, 29, 30, 89, 90, 179, 180, 364, 365, 1000].map((d) => accountTenure(daysBefore(d), ASKED))).toEqual([
      1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
    ]);
  });

  it("the answer goes to Apple's production or sandbox host, or to the configured base URL", () => {
    expect(appleAnswerUrl("2000001", "Production", undefined)).toBe("https://api.storekit.itunes.apple.com/inApps/v1/transactions/consumption/2000001");
    expect(appleAnswerUrl("2000001", "Sandbox", "")).toBe("https://api.storekit-sandbox.itunes.apple.com/inApps/v1/transactions/consumption/2000001");
    expect(appleAnswerUrl("a/b", "Production", "http://127.0.0.1:4011/")).toBe("http://127.0.0.1:4011/inApps/v1/transactions/consumption/a%2Fb");
  });

  it("an answer may go out only from open or failed, and only before the deadline", () => {
    const deadlineAt = new Date(ASKED.getTime() + 12 * 3_600_000);
    const before = new Date(deadlineAt.getTime() - 1);
    expect(sendCheck({ status: "open", deadlineAt }, before)).toBe("ok");
    expect(sendCheck({ status: "failed", deadlineAt }, before)).toBe("ok");
    expect(sendCheck({ status: "open", deadlineAt }, deadlineAt)).toBe("expired");
    expect(sendCheck({ status: "sending", deadlineAt }, before)).toBe("answered");
    expect(sendCheck({ status: "sent", deadlineAt }, before)).toBe("answered");
    expect(sendCheck({ status: "expired", deadlineAt }, before)).toBe("expired");
  });
});

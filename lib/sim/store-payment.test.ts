import { describe, expect, it } from "vitest";
import { CHANNEL_SHARES, isStore, simulatedPayment } from "./store-payment";

/** "Random" numbers: `channel` first (which channel pays), then `digit` for every digit of a store's id. */
const draws = (channel: number, digit = 0) => {
  let first = true;
  return () => (first ? ((first = false), channel) : digit);
};

describe("how the simulator pays an order", () => {
  it("through Alipay or WeChat Pay, the transaction id naming the channel", () => {
    expect(simulatedPayment("SIM-XX-1", draws(0.1))).toEqual({ channel: "alipay", txn: "alipay-SIM-XX-1" });
    expect(simulatedPayment("SIM-XX-1", draws(0.9))).toEqual({ channel: "wechat", txn: "wechat-SIM-XX-1" });
  });

  it("through the App Store: the pay bizKey is Apple's transactionId, a numeric string", () => {
    const payment = simulatedPayment("SIM-XX-2", draws(0.96, 0.3));
    expect(payment).toEqual({ channel: "appstore", txn: "2000000333333333" });
    expect(payment.txn).toMatch(/^\d{16}$/);
  });

  it("through Google Play: the pay bizKey is Google's orderId", () => {
    const payment = simulatedPayment("SIM-XX-3", draws(0.99, 0.7));
    expect(payment).toEqual({ channel: "googleplay", txn: "GPA.7777-7777-7777-77777" });
    expect(payment.txn).toMatch(/^GPA\.\d{4}-\d{4}-\d{4}-\d{5}$/);
  });

  it("keeps the stores a small share of the traffic", () => {
    const shares = Object.values(CHANNEL_SHARES);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(CHANNEL_SHARES.appstore + CHANNEL_SHARES.googleplay).toBeLessThanOrEqual(0.1);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const stores = Array.from({ length: 10_000 }, (_, i) => simulatedPayment(`SIM-${i}`, random)).filter((p) => isStore(p.channel)).length;
    expect(stores).toBeGreaterThan(300);
    expect(stores).toBeLessThan(700);
  });
});

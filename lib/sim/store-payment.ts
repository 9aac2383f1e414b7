// How a simulated order is paid: mostly through the payment channels (Alipay, WeChat Pay), now and
// then through a store (issue 16). A store order looks as the tests' store orders do
// (lib/test/store-orders.ts): its pay bizKey is the store's transaction id — Apple's transactionId
// (a numeric string), Google's orderId (GPA.dddd-dddd-dddd-ddddd) — which is how a store's refund
// notification finds the order later. Pure.

export type SimChannel = "alipay" | "wechat" | "appstore" | "googleplay";

/** Share of paid orders per channel: the stores a small part of the traffic. */
export const CHANNEL_SHARES: Readonly<Record<SimChannel, number>> = { alipay: 0.57, wechat: 0.38, appstore: 0.03, googleplay: 0.02 };

export interface SimPayment {
  readonly channel: SimChannel;
  /** The pay event's bizKey. */
  readonly txn: string;
}

const digits = (count: number, random: () => number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join("");

export function simulatedPayment(orderNo: string, random: () => number): SimPayment {
  let x = random();
  const channel = (Object.keys(CHANNEL_SHARES) as SimChannel[]).find((c) => (x -= CHANNEL_SHARES[c]) < 0) ?? "alipay";
  switch (channel) {
    case "appstore":
      return { channel, txn: `2000000${digits(9, random)}` };
    case "googleplay":
      return { channel, txn: `GPA.${digits(4, random)}-${digits(4, random)}-${digits(4, random)}-${digits(5, random)}` };
    default:
      return { channel, txn: `${channel}-${orderNo}` };
  }
}

/** The stores charge exactly what they sell at, once: no short, over or second payments from them. */
export function isStore(channel: SimChannel): boolean {
  return channel === "appstore" || channel === "googleplay";
}

// The simulated payment channels' side of a refund: told of it by the refund.requested webhook,
// each answers through the API after a while, the way its real counterpart would. Alipay refunds
// reliably after a short wait; WeChat Pay takes longer and now and then refuses (an account that
// was closed, a refund window that passed), which leaves the case with its owner to choose again.
import type { RefundRequestedPayload } from "@/lib/refunds/request-refund";

export interface ChannelAnswer {
  readonly event: "confirm" | "fail";
  /** The channel's own id for its answer. */
  readonly bizKey: string;
  readonly reason?: string;
  readonly delayMs: number;
}

const FAIL_REASONS = ["payer account closed", "refund window expired", "original transaction frozen"];

/** How a channel answers a refund request. Pure. */
export function channelAnswer(payload: Pick<RefundRequestedPayload, "channel" | "refundId">, random: () => number): ChannelAnswer {
  const receipt = `${payload.channel.toUpperCase()}-RF-${payload.refundId.slice(-12)}`;
  if (payload.channel === "wechat") {
    const delayMs = 10_000 + random() * 50_000;
    if (random() < 0.3) return { event: "fail", bizKey: `${receipt}-X`, reason: FAIL_REASONS[Math.floor(random() * FAIL_REASONS.length)]!, delayMs };
    return { event: "confirm", bizKey: receipt, delayMs };
  }
  return { event: "confirm", bizKey: receipt, delayMs: 5_000 + random() * 25_000 };
}

export interface RefundChannelOptions {
  readonly baseUrl: string;
  /** The tenants' API keys (the channel's integration with each product). */
  readonly keys: Readonly<Record<string, string>>;
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  readonly onAnswered?: (answer: ChannelAnswer, status: number) => void;
}

/**
 * A refund request heard on the webhook: answered once its channel's delay has passed. The same
 * request delivered twice (webhooks are at least once) is answered twice with the same bizKey,
 * which the API takes as a duplicate.
 */
export function answerLater(payload: RefundRequestedPayload, options: RefundChannelOptions): void {
  const answer = channelAnswer(payload, options.random ?? Math.random);
  const key = options.keys[payload.tenantId];
  if (!key) return;
  const timer = setTimeout(() => {
    const { delayMs: _delay, ...body } = answer;
    void fetch(`${options.baseUrl}/api/v1/refunds/${encodeURIComponent(payload.refundId)}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => options.onAnswered?.(answer, response.status),
      () => options.onAnswered?.(answer, 0),
    );
  }, answer.delayMs);
  options.signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });
}

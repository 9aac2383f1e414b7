import { describe, expect, it } from "vitest";
import { channelAnswer } from "./refund-channel";

describe("the simulated channels' refund answers", () => {
  it("Alipay confirms after a short wait, always", () => {
    for (const r of [0, 0.5, 0.99]) {
      const answer = channelAnswer({ channel: "alipay", refundId: "rf-0f3c9a7e-1111-4222-8333-444455556666" }, () => r);
      expect(answer).toMatchObject({ event: "confirm", bizKey: "ALIPAY-RF-444455556666" });
      expect(answer.delayMs).toBeGreaterThanOrEqual(5_000);
      expect(answer.delayMs).toBeLessThan(30_000);
    }
  });

  it("WeChat Pay takes longer and fails now and then, saying why", () => {
    const failed = channelAnswer({ channel: "wechat", refundId: "rf-1" }, () => 0.1);
    expect(failed).toMatchObject({ event: "fail", reason: expect.any(String) });
    expect(channelAnswer({ channel: "wechat", refundId: "rf-1" }, () => 0.6)).toMatchObject({ event: "confirm" });
  });
});

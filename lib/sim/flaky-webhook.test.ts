import { describe, expect, it } from "vitest";
import { DEMO_OUTBOX_MAX_ATTEMPTS, DEMO_TIMINGS, FATE_SHARES, flakyAnswer, webhookFate, WEBHOOK_FATES, type WebhookFate } from "./flaky-webhook";

// The relay gives a call this long before it counts as a timeout (lib/jobs/leased-call.ts default).
const RELAY_TIMEOUT_MS = 10_000;

const answers = (fate: WebhookFate, attempts: number) => Array.from({ length: attempts }, (_, i) => flakyAnswer(fate, i + 1));

describe("the demo's unreliable webhook receiver", () => {
  it("gives the messages (sequential outbox ids) their fates in about the shares it names", () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => String(i + 1));
    const counts = Object.fromEntries(WEBHOOK_FATES.map((f) => [f, 0])) as Record<WebhookFate, number>;
    for (const id of ids) counts[webhookFate(id)]++;
    for (const fate of WEBHOOK_FATES) expect(Math.abs(counts[fate] / ids.length - FATE_SHARES[fate]), fate).toBeLessThan(0.02);
    expect(Object.values(FATE_SHARES).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    // The first few dozen messages of a fresh demo meet every fate already.
    expect(new Set(ids.slice(0, 40).map(webhookFate))).toEqual(new Set(WEBHOOK_FATES));
  });

  it("takes an on-time message at once", () => {
    expect(answers("on-time", 1)).toEqual([{ status: 204, delayMs: 0, body: "" }]);
  });

  it("fails a flaky message twice, then takes it: retrying, then delivered", () => {
    expect(answers("flaky", 4).map((a) => a.status)).toEqual([503, 503, 204, 204]);
  });

  it("answers a slow message within the relay's timeout, and a too-slow one's first attempt past it", () => {
    const [slow] = answers("slow", 1);
    expect(slow).toMatchObject({ status: 204 });
    expect(slow!.delayMs).toBeGreaterThan(0);
    expect(slow!.delayMs).toBeLessThan(RELAY_TIMEOUT_MS);
    const [first, second] = answers("too-slow", 2);
    expect(first!.delayMs).toBeGreaterThan(RELAY_TIMEOUT_MS);
    expect(second).toEqual({ status: 204, delayMs: 0, body: "" });
    expect(DEMO_TIMINGS.tooSlowMs).toBeGreaterThan(RELAY_TIMEOUT_MS);
  });

  it("fails a down message on every attempt the demo's relay makes, so it dies; a person's resend after that is taken", () => {
    const tries = answers("down", DEMO_OUTBOX_MAX_ATTEMPTS + 1);
    expect(tries.slice(0, DEMO_OUTBOX_MAX_ATTEMPTS).every((a) => a.status === 500)).toBe(true);
    expect(tries[DEMO_OUTBOX_MAX_ATTEMPTS]!.status).toBe(204);
  });
});

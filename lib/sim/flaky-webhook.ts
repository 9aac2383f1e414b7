// The demo's unreliable webhook receiver (issue 27, item 7): some demo products send their webhooks
// to an endpoint that, like a real game server on a bad day, answers most messages at once, fails
// some a few times before taking them, is slow with others (some past the relay's timeout), and is
// down for a few — so the deliveries page of the demo shows pending, retrying, delivered and dead
// messages live. Pure: which fate a message has (fixed by its message id, so every attempt of one
// message meets the same receiver), and what its attempt number n gets.
import type { DemoTenantId } from "@/lib/seed/demo-catalog";

/**
 * How many attempts the demo's relay makes before a message is dead (scripts/start.ts gives the
 * demo's worker this as OUTBOX_MAX_ATTEMPTS): with the relay's backoff, a message that fails every
 * time is dead within about four minutes, not the nine hours the production budget takes.
 */
export const DEMO_OUTBOX_MAX_ATTEMPTS = 8;

/** The demo products whose webhooks go to the unreliable receiver; the others keep the reliable one. */
export const FLAKY_WEBHOOK_TENANTS: readonly DemoTenantId[] = ["xiaoxiao"];

export const WEBHOOK_FATES = ["on-time", "flaky", "slow", "too-slow", "down"] as const;
export type WebhookFate = (typeof WEBHOOK_FATES)[number];

/** The share of messages of each fate: most arrive, and each status the page shows stays in view. */
export const FATE_SHARES: Readonly<Record<WebhookFate, number>> = { "on-time": 0.55, flaky: 0.2, slow: 0.1, "too-slow": 0.07, down: 0.08 };

/** How a `flaky` message's first attempts fail before it is taken. */
export const FLAKY_FAILURES = 2;

export interface FlakyTimings {
  /** How long a `slow` message takes to be answered (it is taken). */
  readonly slowMs: number;
  /** How long a `too-slow` message's first attempt takes: past the relay's 10-second timeout. */
  readonly tooSlowMs: number;
}

export const DEMO_TIMINGS: FlakyTimings = { slowMs: 4_000, tooSlowMs: 15_000 };

export interface FlakyAnswer {
  readonly status: number;
  /** How long to wait before answering. */
  readonly delayMs: number;
  readonly body: string;
}

/**
 * A number in [0, 1) fixed by the message id (FNV-1a, then murmur3's finalizer so that neighbouring
 * ids — the outbox numbers them in sequence — spread over the whole range): the same message meets
 * the same fate on every attempt and in every run.
 */
export function idFraction(messageId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < messageId.length; i++) {
    hash ^= messageId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

export function webhookFate(messageId: string): WebhookFate {
  let x = idFraction(messageId);
  for (const fate of WEBHOOK_FATES) if ((x -= FATE_SHARES[fate]) < 0) return fate;
  return "on-time";
}

/**
 * What attempt `attempt` (1 for the first) of a message of `fate` gets. `down` fails every attempt
 * the demo's relay makes on its own, so the message dies; a person's resend after that (the next
 * attempt) finds the receiver back up and is taken.
 */
export function flakyAnswer(fate: WebhookFate, attempt: number, timings: FlakyTimings = DEMO_TIMINGS): FlakyAnswer {
  const taken: FlakyAnswer = { status: 204, delayMs: 0, body: "" };
  switch (fate) {
    case "on-time":
      return taken;
    case "flaky":
      return attempt <= FLAKY_FAILURES ? { status: 503, delayMs: 0, body: "busy, try later" } : taken;
    case "slow":
      return { ...taken, delayMs: timings.slowMs };
    case "too-slow":
      return attempt === 1 ? { ...taken, delayMs: timings.tooSlowMs } : taken;
    case "down":
      return attempt <= DEMO_OUTBOX_MAX_ATTEMPTS ? { status: 500, delayMs: 0, body: "internal error: game database unavailable" } : taken;
  }
}

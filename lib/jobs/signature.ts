import { createHmac, timingSafeEqual } from "node:crypto";

// Every request the worker sends out (webhooks, grant calls) is signed the same way, so a receiver
// writes one verifier: HMAC-SHA256 over "<timestamp>.<raw body>" with the tenant's signing secret.
// The timestamp is inside the signed text so a captured request cannot be replayed much later.

export const SIGNATURE_HEADER = "x-orderops-signature";
export const TIMESTAMP_HEADER = "x-orderops-timestamp";
export const MESSAGE_ID_HEADER = "x-orderops-message-id";
export const TOPIC_HEADER = "x-orderops-topic";

const SCHEME = "sha256=";

/** `sha256=<hex>`: the value of x-orderops-signature for this timestamp (unix seconds) and body. */
export function signBody(secret: string, timestamp: string, body: string): string {
  return SCHEME + createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export interface VerifyInput {
  readonly secret: string;
  readonly signature: string | null | undefined;
  readonly timestamp: string | null | undefined;
  /** The raw body exactly as received: re-serialized JSON would not match. */
  readonly body: string;
  /** Reject timestamps further than this from `now` (seconds). Default 300. */
  readonly toleranceSeconds?: number;
  readonly now?: Date;
}

/** What a receiver runs: constant-time comparison, and a bounded clock skew. */
export function verifySignature(input: VerifyInput): boolean {
  const { signature, timestamp } = input;
  if (!signature || !timestamp || !/^\d+$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signBody(input.secret, timestamp, input.body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

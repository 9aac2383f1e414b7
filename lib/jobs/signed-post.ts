import { signBody, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./signature";

export interface SignedPostInput {
  readonly fetch: typeof globalThis.fetch;
  readonly url: string;
  readonly secret: string;
  /** The exact bytes sent and signed. */
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly now?: Date;
  readonly timeoutMs: number;
}

/**
 * What went over the wire, for the deliveries log (outbox_attempts): the headers sent (the signature
 * among them, never the secret, which is not a header), how long the answer took, and the first
 * RESPONSE_BODY_BYTES of it. Where and when the call went, the caller knows already.
 */
export interface Exchange {
  readonly headers: Readonly<Record<string, string>>;
  readonly latencyMs: number;
  readonly responseBody: string;
}

export type SignedPostResult = (
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string }
) & {
  /** Absent when nothing was sent (the caller refused before the request). */
  readonly exchange?: Exchange;
};

/** How much of an answer's body the deliveries log keeps: 1 KB, as the issue asks. */
const RESPONSE_BODY_BYTES = 1024;

const ERROR_BODY_CHARS = 200;

/**
 * POSTs a signed JSON body. Never throws: a refused, failed or timed-out call is a result the caller
 * records (and retries later). Redirects are not followed: a signed body goes only where the tenant
 * configured, and a 3xx counts as a failure.
 */
export function postSigned(input: SignedPostInput): Promise<SignedPostResult> {
  const timestamp = String(Math.floor((input.now ?? new Date()).getTime() / 1000));
  const headers = {
    ...input.headers,
    "content-type": "application/json",
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: signBody(input.secret, timestamp, input.body),
  };
  return send(input.fetch, input.url, { method: "POST", headers, body: input.body }, input.timeoutMs);
}

/**
 * PUTs a JSON body unsigned, with the same rules (no redirects, a result never an exception): for a
 * store's own API (a refund review's answer), which does not know our signing secret.
 */
export function putJson(input: { readonly fetch: typeof globalThis.fetch; readonly url: string; readonly body: string; readonly timeoutMs: number }): Promise<SignedPostResult> {
  return send(input.fetch, input.url, { method: "PUT", headers: { "content-type": "application/json" }, body: input.body }, input.timeoutMs);
}

async function send(
  fetch: typeof globalThis.fetch,
  url: string,
  init: { readonly method: "POST" | "PUT"; readonly headers: Record<string, string>; readonly body: string },
  timeoutMs: number,
): Promise<SignedPostResult> {
  const started = performance.now();
  const exchange = (responseBody: string): Exchange => ({ headers: init.headers, latencyMs: Math.round(performance.now() - started), responseBody: firstBytes(responseBody) });
  try {
    const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    // Read the answer to its end even when unused: a cancelled body closes the kept-alive
    // connection, and every next call would pay for a new one.
    const text = await response.text().catch(() => "");
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, exchange: exchange(text) };
    const snippet = text.slice(0, ERROR_BODY_CHARS).trim();
    return { ok: false, status: response.status, error: `HTTP ${response.status}${snippet ? `: ${snippet}` : ""}`, exchange: exchange(text) };
  } catch (error) {
    return { ok: false, status: null, error: describeFailure(error, timeoutMs), exchange: exchange("") };
  }
}

const encoder = new TextEncoder();

/**
 * The first RESPONSE_BODY_BYTES of a body in UTF-8, cut on a character boundary (encodeInto stops
 * before a character that does not fit), without NULs (PostgreSQL text cannot hold them).
 */
function firstBytes(text: string): string {
  const clean = text.replaceAll("\0", "");
  const { read } = encoder.encodeInto(clean, new Uint8Array(RESPONSE_BODY_BYTES));
  return clean.slice(0, read);
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return `timed out after ${timeoutMs} ms`;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return detail ? `${error.message} (${detail})` : error.message;
  }
  return String(error);
}

import "server-only";
import type pg from "pg";
import { z } from "zod";
import { rows, type Queryable } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import { markRefundsSent, RELAY_ACTOR } from "@/lib/refunds/mark-sent";
import { appStoreApiKeys } from "@/lib/stores/apple/server-api-keys";
import { appStoreAuthorization, describeAuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { serverApiTokens } from "@/lib/stores/apple/server-api-token";
import type { ReviewAnswerMessage } from "@/lib/stores/reviews/model";
import { PAST_DEADLINE } from "@/lib/stores/reviews/model";
import { answerOf, answerRetryInMs, settleReviewAnswers } from "@/lib/stores/reviews/settle-answers";
import { leasedCallSettings, MAX_CALL_ATTEMPTS, retryAfterFailure, type LeasedCallOptions } from "./leased-call";
import { runConcurrently } from "./run-concurrently";
import { MESSAGE_ID_HEADER, TOPIC_HEADER } from "./signature";
import { postSigned, putJson, type SignedPostResult } from "./signed-post";

/** Attempts before a message is `dead` (then ops retry it from the console). */
export const MAX_DELIVERY_ATTEMPTS = MAX_CALL_ATTEMPTS;

/**
 * A tenant without a webhook URL has asked for no notifications. Its messages are marked
 * `delivered` with this note instead of being kept pending (they would be claimed again on every
 * run, forever, ahead of deliverable ones) or made `dead` (the console's dead list is for failures
 * ops should act on, and would fill with every order event of such a tenant). The row stays as the
 * record of what happened; setting a URL later does not replay the past. The console shows such a
 * message as "not sent: no webhook configured", never as delivered.
 */
export { NO_WEBHOOK };

export interface RelayReport {
  readonly claimed: number;
  readonly delivered: number;
  /** Failed, scheduled again with backoff. */
  readonly retrying: number;
  /** Failed for the last allowed time. */
  readonly dead: number;
  /** Marked delivered because the tenant has no webhook (see NO_WEBHOOK). */
  readonly unconfigured: number;
}

export interface ClaimedMessage {
  readonly id: number;
  readonly tenantId: string;
  readonly topic: string;
  readonly payload: unknown;
  readonly attempts: number;
  readonly webhookUrl: string | null;
  readonly signingSecret: string | null;
  /** tenant_settings.apple_bundle_id, read at claim time: an App Store answer's token names the app. */
  readonly appleBundleId: string | null;
  /** The next_attempt_at this claim wrote: the fencing token for settling it. */
  readonly leaseUntil: Date;
}

const claimedRow: z.ZodType<ClaimedMessage, unknown> = z.object({
  id: z.number(),
  tenantId: z.string(),
  topic: z.string(),
  payload: z.unknown(),
  attempts: z.number(),
  webhookUrl: z.string().nullable(),
  signingSecret: z.string().nullable(),
  appleBundleId: z.string().nullable(),
  leaseUntil: z.coerce.date(),
});

const log = logger.child({ job: "outbox-relay" });

/** App Store Server API tokens, reused across batches until shortly before they end. */
const appStoreTokens = serverApiTokens();

/**
 * Claims due pending messages (oldest due first) and pushes their next_attempt_at to the end of a
 * lease, in one statement. The lease is the claim: other relays skip the locked rows while the
 * statement runs and then no longer see them as due, so no message is sent by two relays at once;
 * a relay that dies leaves its messages to come due again when the lease ends.
 */
export async function claimOutboxBatch(
  pool: pg.Pool,
  options: { readonly batchSize: number; readonly leaseMs: number; readonly now?: Date },
): Promise<ClaimedMessage[]> {
  return rows(
    pool,
    claimedRow,
    `WITH due AS (
       SELECT id FROM outbox_messages
       WHERE status = 'pending' AND next_attempt_at <= COALESCE($1::timestamptz, now())
       ORDER BY next_attempt_at, id
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE outbox_messages m
       SET next_attempt_at = date_trunc('milliseconds', COALESCE($1::timestamptz, now()) + $3 * interval '1 millisecond')
       FROM due WHERE m.id = due.id
       RETURNING m.id, m.tenant_id, m.topic, m.payload, m.attempts, m.next_attempt_at
     )
     SELECT c.id, c.tenant_id AS "tenantId", c.topic, c.payload, c.attempts, c.next_attempt_at AS "leaseUntil",
            s.webhook_url AS "webhookUrl", s.signing_secret AS "signingSecret",
            s.apple_bundle_id AS "appleBundleId"
     FROM claimed c LEFT JOIN tenant_settings s ON s.tenant_id = c.tenant_id
     ORDER BY c.id`,
    [options.now ?? null, options.batchSize, options.leaseMs],
  );
}

type Status = "delivered" | "pending" | "dead";

interface Settlement {
  readonly id: number;
  readonly tenantId: string;
  /** Set for `refund.requested` messages: the refund the channel has now been told about. */
  readonly refundId: string | null;
  /** Set for a refund review's answer (lib/stores/reviews): the review the store has now been answered on. */
  readonly reviewId: number | null;
  readonly status: Status;
  /**
   * 1 when the message used up an attempt: a request was made, or an App Store answer could not be
   * authorised (no key: counted, so the attempt limit ends it, not a retry every 2 s until the deadline).
   * 0 when nothing was tried (no webhook, past the deadline).
   */
  readonly tried: number;
  readonly error: string | null;
  /** For `pending`: when to try again, from now. */
  readonly retryInMs: number | null;
  readonly leaseUntil: Date;
  /** The request made, for the deliveries log (outbox_attempts); null when none was (`tried` 0). */
  readonly attempt: Attempt | null;
}

/** One row of outbox_attempts, as the relay saw it. */
interface Attempt {
  readonly url: string;
  readonly at: Date;
  readonly status: number | null;
  readonly latencyMs: number;
  readonly responseBody: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The attempt a call to `url` made at `at`; one refused before any request (an App Store answer without a key) is logged with no answer. */
function attemptOf(sent: SignedPostResult, url: string, at: Date): Attempt {
  const exchange = sent.exchange;
  if (!exchange) return { url, at, status: null, latencyMs: 0, responseBody: "", headers: {} };
  return { url, at, status: sent.status, latencyMs: exchange.latencyMs, responseBody: exchange.responseBody, headers: exchange.headers };
}

/**
 * One batch: claim, POST each message to its tenant's webhook, record the outcomes. Returns what
 * happened; a caller that wants to drain the outbox calls again while `claimed` equals the batch size.
 *
 * Delivery is at least once: a relay that dies after a POST but before recording it sends that
 * message again after the lease. The x-orderops-message-id header is the outbox id, unique and the
 * same on every attempt, for receivers to deduplicate. There is no ordering promise between
 * messages (retries and parallel requests reorder them); payloads carry the order's version.
 */
export async function relayOutbox(options: LeasedCallOptions = {}): Promise<RelayReport> {
  const settings = leasedCallSettings(options, { batchSize: 100, concurrency: 16 });
  const { pool, fetch, timeoutMs } = settings;

  const claimed = await claimOutboxBatch(pool, {
    batchSize: settings.batchSize,
    leaseMs: settings.leaseMs,
    ...(options.now ? { now: options.now } : {}),
  });
  const settlements: Settlement[] = [];
  await runConcurrently(claimed, settings.concurrency, async (message) => {
    // A refund review's answer goes to the store's own API, and never once the store stopped listening.
    const answer = answerOf(message.topic, message.payload);
    if (answer && Date.parse(answer.deadlineAt) <= (options.now ?? new Date()).getTime()) {
      settlements.push({ ...about(message), status: "dead", tried: 0, error: PAST_DEADLINE, retryInMs: null, leaseUntil: message.leaseUntil, attempt: null });
      return;
    }
    if (!answer && (!message.webhookUrl || !message.signingSecret)) {
      settlements.push({ ...about(message), status: "delivered", tried: 0, error: NO_WEBHOOK, retryInMs: null, leaseUntil: message.leaseUntil, attempt: null });
      return;
    }
    const at = options.now ?? new Date();
    const sent = answer
      ? await putAnswer({ fetch, message, answer, timeoutMs, now: at })
      : await postSigned({
          fetch,
          url: message.webhookUrl!,
          secret: message.signingSecret!,
          body: JSON.stringify(message.payload),
          headers: { [MESSAGE_ID_HEADER]: String(message.id), [TOPIC_HEADER]: message.topic },
          timeoutMs,
          ...(options.now ? { now: options.now } : {}),
        });
    const attempt = attemptOf(sent, answer ? answer.url : message.webhookUrl!, at);
    if (sent.ok) {
      settlements.push({ ...about(message), status: "delivered", tried: 1, error: null, retryInMs: null, leaseUntil: message.leaseUntil, attempt });
      return;
    }
    // An answer also ends when it cannot succeed before its deadline (settle-answers.ts says why).
    const backoff = retryAfterFailure(message.attempts, settings);
    const retryInMs = answer ? answerRetryInMs(answer, sent.error, backoff, options.now ?? new Date()) : backoff;
    settlements.push({ ...about(message), status: retryInMs === null ? "dead" : "pending", tried: 1, error: sent.error, retryInMs, leaseUntil: message.leaseUntil, attempt });
    if (retryInMs === null) log.warn({ messageId: message.id, tenantId: message.tenantId, attempts: message.attempts + 1, error: sent.error }, "webhook message is dead");
  });

  await settle(pool, settlements, options.now);
  const count = (predicate: (s: Settlement) => boolean) => settlements.filter(predicate).length;
  return {
    claimed: claimed.length,
    delivered: count((s) => s.status === "delivered" && s.tried === 1),
    retrying: count((s) => s.status === "pending"),
    dead: count((s) => s.status === "dead"),
    unconfigured: count((s) => s.status === "delivered" && s.tried === 0),
  };
}

/**
 * PUTs an answer to its store's API with the headers that API wants, built now. Without them nothing
 * is sent, and the reason is the attempt's error: the store would only refuse the call, less clearly.
 */
async function putAnswer(input: {
  readonly fetch: typeof globalThis.fetch;
  readonly message: ClaimedMessage;
  readonly answer: ReviewAnswerMessage;
  readonly timeoutMs: number;
  readonly now: Date;
}): Promise<SignedPostResult> {
  const headers = await storeHeaders(input.message, input.answer, input.now);
  if (!headers.ok) return { ok: false, status: null, error: headers.error };
  return putJson({ fetch: withHeaders(input.fetch, headers.headers), url: input.answer.url, body: JSON.stringify(input.answer.body), timeoutMs: input.timeoutMs });
}

/**
 * An App Store answer carries a short-lived App Store Server API token, made from the tenant's key
 * (never stored in the outbox, where it would outlive its use and sit in every backup).
 */
async function storeHeaders(
  message: ClaimedMessage,
  answer: ReviewAnswerMessage,
  now: Date,
): Promise<{ readonly ok: true; readonly headers: Readonly<Record<string, string>> } | { readonly ok: false; readonly error: string }> {
  if (answer.store !== "appstore") return { ok: true, headers: {} };
  const authorization = await appStoreAuthorization({ tenantId: message.tenantId, bundleId: message.appleBundleId, now, keys: appStoreApiKeys(), tokens: appStoreTokens });
  return authorization.ok ? { ok: true, headers: { authorization: authorization.authorization } } : { ok: false, error: describeAuthorizationProblem(authorization.problem) };
}

/** `fetch` with `headers` added to each request: putJson knows only its content type. */
function withHeaders(fetch: typeof globalThis.fetch, headers: Readonly<Record<string, string>>): typeof globalThis.fetch {
  if (Object.keys(headers).length === 0) return fetch;
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

/** Which message a settlement is about, and which refund or refund review when it carries one. */
function about(message: ClaimedMessage): Pick<Settlement, "id" | "tenantId" | "refundId" | "reviewId"> {
  const payload = message.payload as { refundId?: unknown } | null;
  const refundId = message.topic === "refund.requested" && typeof payload?.refundId === "string" ? payload.refundId : null;
  return { id: message.id, tenantId: message.tenantId, refundId, reviewId: answerOf(message.topic, message.payload)?.reviewId ?? null };
}

/**
 * Records a batch's outcomes, and marks the refunds whose request reached the channel as sent, in
 * one transaction: a refund is `sent` exactly when its message is `delivered` (a tenant without a
 * webhook was told nothing, so its refunds stay `requested`). `attempts` counts requests made,
 * successful or not. The lease is the fence: if this relay overran its lease and another claimed the
 * message since, next_attempt_at no longer matches and this relay's stale outcome is dropped — and
 * so is its refund's. A refund review's answer settles its review the same way (sent, failed, expired).
 */
async function settle(pool: pg.Pool, settlements: readonly Settlement[], now: Date | undefined): Promise<void> {
  if (settlements.length === 0) return;
  const refunds = settlements.filter((s) => s.refundId !== null && s.status === "delivered" && s.tried === 1);
  const answers = settlements.filter((s) => s.reviewId !== null);
  if (refunds.length === 0 && answers.length === 0) {
    await settleMessages(pool, settlements, now);
    return;
  }
  await transaction(
    async (tx: PrismaTransaction) => {
      const settled = new Set(await settleMessages(tx.client, settlements, now));
      await markRefundsSent(
        tx,
        refunds.filter((s) => settled.has(s.id)).map((s) => ({ tenantId: s.tenantId, refundId: s.refundId!, messageId: s.id })),
      );
      await settleReviewAnswers(
        tx,
        answers.filter((s) => settled.has(s.id)).map((s) => ({ tenantId: s.tenantId, reviewId: s.reviewId!, messageId: s.id, status: s.status, error: s.error })),
        RELAY_ACTOR,
      );
    },
    { pool, prisma: true },
  );
}

const settledRow = z.object({ id: z.number() });

/**
 * One statement for the batch; returns the ids it settled (those whose lease still held). The
 * attempts are logged by the same statement, for the settled messages only: a relay whose lease was
 * taken over records neither the outcome nor the attempt, so no attempt is logged twice.
 */
async function settleMessages(db: Queryable, settlements: readonly Settlement[], now: Date | undefined): Promise<number[]> {
  const settled = await rows(
    db,
    settledRow,
    `WITH x AS (
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::bigint[], $6::timestamptz[],
                            $8::text[], $9::timestamptz[], $10::int[], $11::int[], $12::text[], $13::text[])
         AS x(id, status, tried, error, retry_in_ms, lease_until, url, attempted_at, http_status, latency_ms, response_body, request_headers)
     ), settled AS (
       UPDATE outbox_messages m SET
         status = x.status,
         attempts = m.attempts + x.tried,
         last_error = x.error,
         next_attempt_at = CASE WHEN x.retry_in_ms IS NULL THEN m.next_attempt_at
                                ELSE COALESCE($7::timestamptz, now()) + x.retry_in_ms * interval '1 millisecond' END,
         delivered_at = CASE WHEN x.status = 'delivered' THEN COALESCE($7::timestamptz, now()) END
       FROM x
       WHERE m.id = x.id AND m.status = 'pending' AND m.next_attempt_at = x.lease_until
       RETURNING m.id, m.tenant_id
     ), logged AS (
       INSERT INTO outbox_attempts (tenant_id, message_id, url, attempted_at, status, error, latency_ms, response_body, request_headers)
       SELECT s.tenant_id, x.id, x.url, x.attempted_at, x.http_status, x.error, x.latency_ms, x.response_body, x.request_headers::jsonb
       FROM settled s JOIN x ON x.id = s.id
       WHERE x.url IS NOT NULL
     )
     SELECT id FROM settled`,
    [
      settlements.map((s) => s.id),
      settlements.map((s) => s.status),
      settlements.map((s) => s.tried),
      settlements.map((s) => s.error),
      settlements.map((s) => s.retryInMs),
      settlements.map((s) => s.leaseUntil),
      now ?? null,
      settlements.map((s) => s.attempt?.url ?? null),
      settlements.map((s) => s.attempt?.at ?? null),
      settlements.map((s) => s.attempt?.status ?? null),
      settlements.map((s) => s.attempt?.latencyMs ?? null),
      settlements.map((s) => s.attempt?.responseBody ?? null),
      settlements.map((s) => (s.attempt ? JSON.stringify(s.attempt.headers) : null)),
    ],
  );
  return settled.map((s) => s.id);
}

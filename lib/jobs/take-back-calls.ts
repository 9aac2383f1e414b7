import "server-only";
import type pg from "pg";
import { z } from "zod";
import { audit, type CaseAuditAction } from "@/lib/audit/record";
import { takeBackCaseKey } from "@/lib/cases/model";
import { settleTakeBackCase } from "@/lib/cases/settle-take-back-case";
import { maybeOne, rows } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import type { ExceptionDraft } from "@/lib/orders/decide";
import { recordException } from "@/lib/orders/record-exception";
import { NO_GRANT_ENDPOINT, NO_REVOKE_ENDPOINT } from "@/lib/orders/take-back";
import { leasedCallSettings, retryAfterFailure, type LeasedCallOptions, type LeasedCallSettings } from "./leased-call";
import { callGrantEndpoint, type GrantRequest } from "./delivery-call";
import { runConcurrently } from "./run-concurrently";
import { postSigned, type SignedPostResult } from "./signed-post";

// The calls take_backs rows owe the game (rule `revoke`, migration 20261204130000_take_back_rules):
// a negative row asks the tenant's revoke endpoint to take the units back, a positive `reinstate:`
// row (the store reversed its refund) asks the tenant's grant endpoint to give them back.
// lib/orders/write-ledger.ts writes the rows `pending`; this job makes each row `done` or `failed`,
// and a `failed` row files a `take-back-failed` case for ops in the same transaction.

export const TAKE_BACK_ACTOR = "system:take-backs";


/**
 * The body POSTed to a tenant's revoke endpoint. A 2xx means: taken back (or already taken back) in
 * full. The game revokes each revocationId once and answers 2xx to repeats.
 */
export type RevokeRequest = Omit<GrantRequest, "grantId"> & {
  /** Units to take back: always positive. */
  readonly quantity: number;
  readonly revocationId: string;
};

/**
 * The id the game deduplicates a take-back call by — the revocationId of a revoke, the grantId of a
 * give-back: `<ledger grant_id>:<orderNo>:<sku>`, e.g. `refund:R-17:T20261204:gems-60` or
 * `reinstate:K-9:T20261204:gems-60`. Made only from the row's (order_no, sku, grant_id), which are
 * unique per tenant and never change, so every retry (and a worker that crashed after the game
 * answered) sends the same id and the game acts once. It keeps the ledger row's `refund:` /
 * `reinstate:` prefix, so a give-back never looks like a delivery (`deliver:…`, delivery-call.ts).
 * orderNo and sku may contain ':' (the API allows it), so their ':' and '%' are percent-escaped:
 * read from the right, the last two fields are always orderNo and sku, and two rows never share an id.
 */
export function takeBackCallId(row: { readonly grantId: string; readonly orderNo: string; readonly sku: string }): string {
  return `${row.grantId}:${escapeField(row.orderNo)}:${escapeField(row.sku)}`;
}

function escapeField(value: string): string {
  return value.replaceAll("%", "%25").replaceAll(":", "%3A");
}

export interface TakeBackCallReport {
  readonly claimed: number;
  /** The game confirmed: `done`. */
  readonly done: number;
  /** The call failed; tried again after the backoff. */
  readonly retrying: number;
  /** `failed`: attempts used up, or no endpoint to call. */
  readonly failed: number;
  /** Outcomes dropped because this worker's lease had run out and another worker claimed the row. */
  readonly stale: number;
}

const claimedRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  orderId: z.number(),
  orderNo: z.string(),
  playerId: z.string(),
  sku: z.string(),
  kind: z.string(),
  grantId: z.string(),
  units: z.number(),
  rule: z.string(),
  attempts: z.number(),
  revokeEndpointUrl: z.string().nullable(),
  grantEndpointUrl: z.string().nullable(),
  signingSecret: z.string().nullable(),
  /** The next_attempt_at this claim wrote: the fencing token for settling it. */
  leaseUntil: z.coerce.date(),
});
export type ClaimedTakeBack = z.output<typeof claimedRow>;

/**
 * Claims due pending rows (oldest due first, through take_backs_pending_idx) and pushes their
 * next_attempt_at to the end of a lease, in one statement — the outbox relay's claim. The HTTP
 * calls then run with no transaction open; other workers skip the locked rows while the statement
 * runs and afterwards no longer see them as due, so no row is called by two workers at once, and
 * a worker that dies leaves its rows to come due again when the lease ends.
 */
export function claimTakeBacks(
  pool: pg.Pool,
  options: { readonly batchSize: number; readonly leaseMs: number; readonly now?: Date },
): Promise<ClaimedTakeBack[]> {
  return rows(
    pool,
    claimedRow,
    `WITH due AS (
       SELECT id FROM take_backs
       WHERE status = 'pending' AND next_attempt_at <= COALESCE($1::timestamptz, now())
       ORDER BY next_attempt_at, id
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE take_backs t
       SET next_attempt_at = date_trunc('milliseconds', COALESCE($1::timestamptz, now()) + $3 * interval '1 millisecond')
       FROM due WHERE t.id = due.id
       RETURNING t.id, t.tenant_id, t.order_id, t.player_id, t.sku, t.kind, t.grant_id, t.units, t.rule, t.attempts, t.next_attempt_at
     )
     SELECT c.id, c.tenant_id AS "tenantId", c.order_id AS "orderId", o.order_no AS "orderNo", c.player_id AS "playerId",
            c.sku, c.kind, c.grant_id AS "grantId", c.units, c.rule, c.attempts, c.next_attempt_at AS "leaseUntil",
            s.revoke_endpoint_url AS "revokeEndpointUrl", s.grant_endpoint_url AS "grantEndpointUrl", s.signing_secret AS "signingSecret"
     FROM claimed c JOIN orders o ON o.id = c.order_id LEFT JOIN tenant_settings s ON s.tenant_id = c.tenant_id
     ORDER BY c.id`,
    [options.now ?? null, options.batchSize, options.leaseMs],
  );
}

/** Which endpoint a row's call goes to, and what it sends. */
export type TakeBackCall =
  | { readonly endpoint: "revoke"; readonly url: string | null; readonly request: RevokeRequest }
  | { readonly endpoint: "grant"; readonly url: string | null; readonly request: GrantRequest };

/** Negative units: revoke what the refund took. Positive: grant again what a reversed refund gives back. */
export function takeBackCall(row: ClaimedTakeBack): TakeBackCall {
  const about = { tenantId: row.tenantId, orderNo: row.orderNo, playerId: row.playerId, sku: row.sku, kind: row.kind, quantity: Math.abs(row.units) };
  const id = takeBackCallId(row);
  return row.units < 0
    ? { endpoint: "revoke", url: row.revokeEndpointUrl, request: { ...about, revocationId: id } }
    : { endpoint: "grant", url: row.grantEndpointUrl, request: { ...about, grantId: id } };
}

/** What a claimed row becomes. `tried`: whether a request was made (counted in attempts). */
export type Outcome =
  | { readonly status: "done"; readonly tried: 1 }
  | { readonly status: "pending"; readonly tried: 1; readonly error: string; readonly retryInMs: number }
  | { readonly status: "failed"; readonly tried: 0 | 1; readonly error: string };

/** A call's result, or why none was made. */
export type Sent = SignedPostResult | { readonly ok: false; readonly status: null; readonly error: string; readonly unconfigured: true };

/** Pure: the outcome of a call (or of having nothing to call) for a row with `attempts` before it. */
export function outcomeOf(attempts: number, sent: Sent, settings: Pick<LeasedCallSettings, "maxAttempts" | "random">): Outcome {
  if (sent.ok) return { status: "done", tried: 1 };
  if ("unconfigured" in sent) return { status: "failed", tried: 0, error: sent.error };
  const retryInMs = retryAfterFailure(attempts, settings);
  return retryInMs === null ? { status: "failed", tried: 1, error: sent.error } : { status: "pending", tried: 1, error: sent.error, retryInMs };
}

const log = logger.child({ job: "take-back-calls" });

/**
 * One batch: claim due rows, make each one's call, record each outcome. A caller that wants to
 * drain the queue calls again while `claimed` equals the batch size.
 *
 * At least once: a worker that dies after the game answered but before recording it calls again
 * after the lease, with the same id (takeBackCallId), and the game answers "already done".
 */
export async function runTakeBackCalls(options: LeasedCallOptions = {}): Promise<TakeBackCallReport> {
  const settings = leasedCallSettings(options, { batchSize: 50, concurrency: 8 });
  const { pool } = settings;

  const claimed = await claimTakeBacks(pool, {
    batchSize: settings.batchSize,
    leaseMs: settings.leaseMs,
    ...(options.now ? { now: options.now } : {}),
  });
  const counts = { claimed: claimed.length, done: 0, retrying: 0, failed: 0, stale: 0 };
  await runConcurrently(claimed, settings.concurrency, async (row) => {
    const call = takeBackCall(row);
    const sent = await send(call, row.signingSecret, settings);
    const outcome = outcomeOf(row.attempts, sent, settings);
    if (!(await settle(pool, row, call, outcome, options.now))) {
      counts.stale++;
      return;
    }
    if (outcome.status === "done") counts.done++;
    else if (outcome.status === "pending") counts.retrying++;
    else {
      counts.failed++;
      log.warn({ takeBackId: row.id, tenantId: row.tenantId, orderId: row.orderId, error: outcome.error }, "take-back call failed for good");
    }
  });
  return counts;
}

/** The signed POST, or the reason there is none. Never throws. */
function send(
  call: TakeBackCall,
  secret: string | null,
  options: { readonly fetch: typeof globalThis.fetch; readonly timeoutMs: number; readonly now: Date | undefined },
): Promise<Sent> {
  if (call.url === null || secret === null) {
    const error = call.endpoint === "revoke" ? NO_REVOKE_ENDPOINT : NO_GRANT_ENDPOINT;
    return Promise.resolve({ ok: false, status: null, error, unconfigured: true });
  }
  // A give-back is a grant like any other to the game: the same endpoint, body and signature.
  if (call.endpoint === "grant") return callGrantEndpoint({ url: call.url, secret }, call.request, options);
  return postSigned({
    fetch: options.fetch,
    url: call.url,
    secret,
    body: JSON.stringify(call.request),
    timeoutMs: options.timeoutMs,
    ...(options.now ? { now: options.now } : {}),
  });
}

const AUDIT_ACTION: Record<"done" | "failed", CaseAuditAction> = {
  done: "take-back.done",
  failed: "take-back.failed",
};

const settledRow = z.object({ attempts: z.number() });

/**
 * Pure: the case a row that became `failed` files. Keyed by the row (takeBackCaseKey), so a row
 * files one case ever: should it be retried and fail again, the case it filed (open, or dismissed by
 * someone who already moved the goods by hand) is the one that counts.
 */
export function takeBackCase(row: ClaimedTakeBack, call: TakeBackCall, settled: { readonly attempts: number; readonly error: string }): ExceptionDraft {
  return {
    tenantId: row.tenantId,
    orderId: row.orderId,
    kind: "take-back-failed",
    bizKey: takeBackCaseKey(row.id),
    actor: TAKE_BACK_ACTOR,
    detail: { ...callFacts(row, call, settled.attempts), lastError: settled.error },
  };
}

/** What the audit fact and the case both say about a row's call: which goods, under which rule, the id the game saw. */
function callFacts(row: ClaimedTakeBack, call: TakeBackCall, attempts: number): Record<string, unknown> {
  const id = call.endpoint === "revoke" ? { revocationId: call.request.revocationId } : { grantId: call.request.grantId };
  return { takeBackId: row.id, sku: row.sku, units: row.units, rule: row.rule, ledgerGrantId: row.grantId, endpoint: call.endpoint, ...id, attempts };
}

/**
 * Records one row's outcome, and for `done` and `failed` its audit fact, in one transaction; with
 * `failed` the row's case for ops, with `done` the closing of any case it filed before. The
 * lease is the fence: if this worker overran its lease and another claimed the row since,
 * next_attempt_at no longer matches, nothing is written and false is returned — the other worker's
 * outcome is the one that counts. One transaction per row, not per batch: each writes a fact to its
 * order's audit chain, and two workers settling batches that share orders in different sequences
 * could otherwise deadlock on the chain heads.
 */
async function settle(pool: pg.Pool, row: ClaimedTakeBack, call: TakeBackCall, outcome: Outcome, now: Date | undefined): Promise<boolean> {
  return transaction(
    async (tx: PrismaTransaction) => {
      const { client, prisma } = tx;
      const settled = await maybeOne(
        client,
        settledRow,
        `UPDATE take_backs SET
           status = $2,
           attempts = attempts + $3,
           last_error = $4,
           next_attempt_at = CASE WHEN $2 = 'pending' THEN COALESCE($6::timestamptz, now()) + $5::float8 * interval '1 millisecond' END,
           updated_at = now()
         WHERE id = $1 AND status = 'pending' AND next_attempt_at = $7
         RETURNING attempts`,
        [row.id, outcome.status, outcome.tried, outcome.status === "done" ? null : outcome.error, outcome.status === "pending" ? outcome.retryInMs : null, now ?? null, row.leaseUntil],
      );
      if (!settled || outcome.status === "pending") return settled !== null;
      await audit(
        {
          actor: TAKE_BACK_ACTOR,
          action: AUDIT_ACTION[outcome.status],
          tenantId: row.tenantId,
          orderId: row.orderId,
          target: `take-back:${row.id}`,
          detail: { ...callFacts(row, call, settled.attempts), ...(outcome.status === "failed" ? { error: outcome.error } : {}) },
        },
        prisma,
      );
      // In this transaction, or a crash between the two would leave a failed row nobody is told about.
      if (outcome.status === "failed") await recordException(takeBackCase(row, call, { attempts: settled.attempts, error: outcome.error }), client);
      else await settleTakeBackCase(tx, { tenantId: row.tenantId, orderId: row.orderId, takeBackId: row.id, actor: TAKE_BACK_ACTOR });
      return true;
    },
    { pool, prisma: true, retry: { label: "settle take-back call" } },
  );
}

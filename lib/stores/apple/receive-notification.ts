import "server-only";
import type { X509Certificate } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { logger } from "@/lib/log";
import { execute, maybeOne, rows } from "@/lib/db/sql";
import { transaction, type PrismaTransaction, type Tx } from "@/lib/db/transaction";
import type { ExceptionDraft } from "@/lib/orders/decide";
import { ORDER_STATES } from "@/lib/orders/machine";
import { recordException } from "@/lib/orders/record-exception";
import { transitIn } from "@/lib/orders/transit";
import type { Problem, StoreSignatureFailure } from "@/lib/problems";
import {
  CONSUMPTION_DEADLINE_MS,
  isRefundSignal,
  latestSignal,
  notificationPayload,
  REFUND_SIGNALS,
  stepsFor,
  STORE,
  STORE_ACTOR,
  transactionPayload,
  type NotificationOutcome,
  type NotificationPayload,
  type SignalFact,
  type TransactionPayload,
} from "./model";
import { verifySigned } from "./verify-signed";

export type ReceiveResult =
  | { readonly result: "stored" | "duplicate"; readonly outcome: NotificationOutcome; readonly notificationUUID: string }
  /** Refused before anything was stored (the refusal is an audit fact): a 4xx for Apple. */
  | { readonly result: "refused"; readonly code: "unauthenticated" | "forbidden" | "invalid-input"; readonly problem: Problem }
  | { readonly result: "unknown-tenant" };

const settingsRow = z.object({ bundleId: z.string().nullable(), environment: z.string().nullable() });

/**
 * One App Store Server Notification V2 for `tenantId`: verify it (the outer payload and the signed
 * transaction inside, each up to a trusted root), check it is for the tenant's app and environment,
 * then store it and do what it asks in one transaction — so the 200 Apple gets means it is stored,
 * and a retry of the same notificationUUID is a duplicate that changes nothing. What it does to the
 * order goes through transit(), as the store (`store:appstore`, source `store`), by the ordering
 * rule (model.ts): only the transaction's latest refund fact by signedDate acts.
 */
export async function receiveAppleNotification(input: { tenantId: string; signedPayload: string; roots: readonly X509Certificate[]; now: Date }): Promise<ReceiveResult> {
  const { tenantId } = input;
  const settings = await maybeOne(
    getPool(),
    settingsRow,
    `SELECT apple_bundle_id AS "bundleId", apple_environment AS "environment" FROM tenant_settings WHERE tenant_id = $1`,
    [tenantId],
  );
  if (!settings) return { result: "unknown-tenant" };

  const refuse = async (code: Extract<ReceiveResult, { result: "refused" }>["code"], problem: Problem): Promise<ReceiveResult> => {
    if (mayRecordRefusal(tenantId, input.now)) {
      await audit({ actor: STORE_ACTOR, action: "store.notification-refused", tenantId, target: `tenant:${tenantId}`, detail: { store: STORE, problem } });
    } else {
      logger.warn({ tenantId, store: STORE, problem }, "store notification refused (audit rows for this minute used up)");
    }
    return { result: "refused", code, problem };
  };
  const badSignature = (reason: StoreSignatureFailure) => refuse("unauthenticated", { kind: "store-signature-invalid", reason });

  const outer = await verifySigned(input.signedPayload, input.roots, input.now);
  if (!outer.ok) return badSignature(outer.reason);
  const parsed = notificationPayload.safeParse(outer.payload);
  if (!parsed.success) return refuse("invalid-input", { kind: "store-signature-invalid", reason: "malformed" });
  const notification = parsed.data;

  if (!settings.bundleId || !settings.environment) return refuse("forbidden", { kind: "store-not-connected", store: "appstore" });
  const mismatch = (field: "bundleId" | "environment", expected: string, actual: string | undefined) =>
    actual !== expected ? refuse("forbidden", { kind: "store-app-mismatch", field, expected, actual: actual ?? "" }) : null;
  const app = notification.data ?? notification.summary;
  const appRefusal = mismatch("bundleId", settings.bundleId, app?.bundleId) ?? mismatch("environment", settings.environment, app?.environment);
  if (appRefusal) return appRefusal;

  let txn: TransactionPayload | null = null;
  if (notification.data?.signedTransactionInfo) {
    const inner = await verifySigned(notification.data.signedTransactionInfo, input.roots, input.now);
    if (!inner.ok) return badSignature(inner.reason);
    const decoded = transactionPayload.safeParse(inner.payload);
    if (!decoded.success) return refuse("invalid-input", { kind: "store-signature-invalid", reason: "malformed" });
    txn = decoded.data;
    const innerMismatch = mismatch("bundleId", settings.bundleId, txn.bundleId);
    if (innerMismatch) return innerMismatch;
  }

  const evidence = { ...outer.payload, ...(txn ? { data: { ...notification.data, signedTransactionInfo: undefined, transactionInfo: txn } } : {}) };
  const { result, exceptions } = await transaction((tx: PrismaTransaction) => store(tx, tenantId, notification, txn, evidence), {
    retry: { label: "store notification", uniqueViolations: true },
    prisma: true,
  });
  // Exceptions transit() filed for a refused step are written after the commit, like transit()'s own.
  for (const exception of exceptions) await recordException(exception);
  return result;
}

/**
 * Refusals recorded as audit facts per tenant and minute, per web instance. The URL is public and a
 * refusal costs the caller nothing, so a row for every one would let anyone grow the audit log; past
 * this many in a minute they are only logged (the same reasoning as the API key throttle's).
 */
export const REFUSALS_RECORDED_PER_MINUTE = 20;
const refusalsThisMinute = new Map<string, { minute: number; count: number }>();

function mayRecordRefusal(tenantId: string, now: Date): boolean {
  const minute = Math.floor(now.getTime() / 60_000);
  const seen = refusalsThisMinute.get(tenantId);
  if (!seen || seen.minute !== minute) {
    if (refusalsThisMinute.size > 10_000) refusalsThisMinute.clear();
    refusalsThisMinute.set(tenantId, { minute, count: 1 });
    return true;
  }
  seen.count += 1;
  return seen.count <= REFUSALS_RECORDED_PER_MINUTE;
}

const existingRow = z.object({ outcome: z.string() });
const orderRow = z.object({ orderId: z.coerce.number(), state: z.enum(ORDER_STATES) });
const signalRow = z.object({ type: z.enum(REFUND_SIGNALS), signedAt: z.coerce.number(), notificationId: z.string() });

interface Stored {
  readonly result: ReceiveResult;
  readonly exceptions: readonly ExceptionDraft[];
}

async function store(tx: PrismaTransaction, tenantId: string, n: NotificationPayload, txn: TransactionPayload | null, evidence: unknown): Promise<Stored> {
  // The order first, locked: every notification of one order is then judged one at a time, each
  // seeing what the previous one stored (READ COMMITTED after the lock).
  const order = txn ? await lockStoreOrder(tx, tenantId, txn) : null;
  const existing = await maybeOne(tx.client, existingRow, `SELECT outcome FROM store_notifications WHERE tenant_id = $1 AND store = $2 AND notification_id = $3`, [
    tenantId,
    STORE,
    n.notificationUUID,
  ]);
  if (existing) return { result: { result: "duplicate", outcome: existing.outcome as NotificationOutcome, notificationUUID: n.notificationUUID }, exceptions: [] };

  const exceptions: ExceptionDraft[] = [];
  let outcome: NotificationOutcome;
  let detail: Record<string, unknown> = {};
  let deadline: Date | null = null;
  const type = n.notificationType;
  if (type === "CONSUMPTION_REQUEST") {
    outcome = "recorded";
    deadline = new Date(n.signedDate + CONSUMPTION_DEADLINE_MS);
    detail = { reason: n.data?.consumptionRequestReason ?? null };
  } else if (!isRefundSignal(type)) {
    outcome = "ignored";
  } else if (!txn || !order) {
    outcome = "no-order";
  } else {
    const facts = await rows(
      tx.client,
      signalRow,
      `SELECT type, (extract(epoch FROM signed_at) * 1000)::bigint AS "signedAt", notification_id AS "notificationId"
       FROM store_notifications WHERE tenant_id = $1 AND store = $2 AND transaction_id = $3 AND type = ANY($4::text[])`,
      [tenantId, STORE, txn.transactionId, REFUND_SIGNALS],
    );
    const incoming: SignalFact = { type, signedAt: n.signedDate, notificationId: n.notificationUUID };
    const latest = latestSignal([...facts, incoming]);
    if (latest !== incoming) {
      outcome = "superseded";
      detail = { by: latest?.notificationId ?? null, byType: latest?.type ?? null };
    } else {
      ({ outcome, detail } = await follow(tx, tenantId, order, incoming, txn, exceptions));
    }
  }

  await execute(
    tx.client,
    `INSERT INTO store_notifications (tenant_id, store, notification_id, type, subtype, environment, transaction_id, original_transaction_id,
                                      order_id, signed_at, outcome, detail, deadline_at, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, to_timestamp($10::float8 / 1000), $11, $12, $13, $14)`,
    [
      tenantId,
      STORE,
      n.notificationUUID,
      type,
      n.subtype ?? null,
      (n.data ?? n.summary)?.environment ?? "",
      txn?.transactionId ?? null,
      txn?.originalTransactionId ?? null,
      order?.orderId ?? null,
      n.signedDate,
      outcome,
      JSON.stringify(detail),
      deadline,
      JSON.stringify(evidence),
    ],
  );
  // The notification as an audit fact in the same transaction: it joins the order's chain and its
  // timeline (what the store said, and what it did), or the tenant's when no order is involved.
  await audit(
    {
      actor: STORE_ACTOR,
      action: "store.notification",
      tenantId,
      orderId: order?.orderId ?? null,
      target: txn ? `${STORE}:${txn.transactionId}` : null,
      detail: { type, ...(n.subtype ? { subtype: n.subtype } : {}), outcome, notificationUUID: n.notificationUUID, signedDate: new Date(n.signedDate).toISOString() },
    },
    tx.prisma,
  );
  return { result: { result: "stored", outcome, notificationUUID: n.notificationUUID }, exceptions };
}

/**
 * The order a store transaction paid, locked. A store order's pay bizKey is the store's
 * transactionId; the first notification about it records the purchase (with its original
 * transaction id) in store_purchases, where later ones find it.
 */
async function lockStoreOrder(tx: Tx, tenantId: string, txn: TransactionPayload): Promise<z.output<typeof orderRow> | null> {
  const found = await maybeOne(
    tx.client,
    z.object({ orderId: z.coerce.number() }),
    `(SELECT order_id AS "orderId" FROM store_purchases WHERE tenant_id = $1 AND store = $2 AND transaction_id = $3)
     UNION ALL
     (SELECT order_id FROM order_transitions WHERE tenant_id = $1 AND event = 'pay' AND biz_key = $3 ORDER BY id LIMIT 1)
     LIMIT 1`,
    [tenantId, STORE, txn.transactionId],
  );
  if (!found) return null;
  const order = await maybeOne(tx.client, orderRow, `SELECT id AS "orderId", state FROM orders WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [found.orderId, tenantId]);
  if (!order) return null;
  await execute(
    tx.client,
    `INSERT INTO store_purchases (tenant_id, store, transaction_id, original_transaction_id, order_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, store, transaction_id) DO NOTHING`,
    [tenantId, STORE, txn.transactionId, txn.originalTransactionId, order.orderId],
  );
  return order;
}

/** The latest refund fact, followed: its steps through transit(), or a case when the order cannot follow. */
async function follow(
  tx: Tx,
  tenantId: string,
  order: z.output<typeof orderRow>,
  signal: SignalFact,
  txn: TransactionPayload,
  exceptions: ExceptionDraft[],
): Promise<{ outcome: NotificationOutcome; detail: Record<string, unknown> }> {
  const steps = stepsFor(signal.type, order.state);
  if (steps.length === 0) return { outcome: "unchanged", detail: { state: order.state } };
  const applied: string[] = [];
  for (const step of steps) {
    if (step.kind === "case") {
      await recordException(
        {
          tenantId,
          orderId: order.orderId,
          kind: "store-refund-reversed",
          bizKey: `${STORE}:${txn.transactionId}`,
          actor: STORE_ACTOR,
          detail: { transactionId: txn.transactionId, originalTransactionId: txn.originalTransactionId, notificationUUID: signal.notificationId, state: order.state },
        },
        tx.client,
      );
      return { outcome: "case-filed", detail: { state: order.state } };
    }
    const { result, exception } = await transitIn(tx, {
      orderId: order.orderId,
      event: step.event,
      // One bizKey per notification: the same notification can never move the order twice.
      bizKey: `${STORE}:${signal.notificationId}`,
      actor: STORE_ACTOR,
      source: "store",
      reason: `App Store ${signal.type} of transaction ${txn.transactionId}`,
    });
    if (exception) exceptions.push(exception);
    if (result.result !== "applied" && result.result !== "duplicate") {
      return { outcome: "refused", detail: { applied, event: step.event, result: result.result, ...("refusal" in result ? { refusal: result.refusal } : {}) } };
    }
    applied.push(step.event);
  }
  return { outcome: "applied", detail: { applied } };
}

import "server-only";
import type { X509Certificate } from "node:crypto";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne, rows } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";
import type { ExceptionDraft } from "@/lib/orders/decide";
import type { Problem, StoreSignatureFailure } from "@/lib/problems";
import type { NotificationOutcome } from "@/lib/stores/model";
import { followSteps, inStoreTransaction, insertNotification, lockStoreOrder, refuseNotification, storedOutcome, type Refused } from "@/lib/stores/notifications";
import { openRefundReview } from "@/lib/stores/reviews/open-review";
import {
  CONSUMPTION_DEADLINE_MS,
  isRefundSignal,
  latestSignal,
  notificationPayload,
  REFUND_SIGNALS,
  refundMeasure,
  stepsFor,
  STORE,
  transactionPayload,
  type NotificationPayload,
  type SignalFact,
  type TransactionPayload,
} from "./model";
import { verifySigned } from "./verify-signed";

export type ReceiveResult =
  | { readonly result: "stored" | "duplicate"; readonly outcome: NotificationOutcome; readonly notificationUUID: string }
  /** Refused before anything was stored (the refusal is an audit fact): a 4xx for Apple. */
  | Refused
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

  const refuse = (code: Refused["code"], problem: Problem): Promise<Refused> => refuseNotification(STORE, tenantId, code, problem);
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
  return inStoreTransaction("store notification", (tx, exceptions) => store(tx, tenantId, notification, txn, evidence, exceptions));
}

const signalRow = z.object({ type: z.enum(REFUND_SIGNALS), signedAt: z.coerce.number(), notificationId: z.string() });

async function store(
  tx: PrismaTransaction,
  tenantId: string,
  n: NotificationPayload,
  txn: TransactionPayload | null,
  evidence: unknown,
  exceptions: ExceptionDraft[],
): Promise<ReceiveResult> {
  // The order first, locked: every notification of one order is then judged one at a time.
  const order = txn ? await lockStoreOrder(tx, tenantId, STORE, txn) : null;
  const existing = await storedOutcome(tx, tenantId, STORE, n.notificationUUID);
  if (existing) return { result: "duplicate", outcome: existing, notificationUUID: n.notificationUUID };

  let outcome: NotificationOutcome;
  let detail: Record<string, unknown> = {};
  let deadline: Date | null = null;
  let refundedAmount: number | null = null;
  const type = n.notificationType;
  if (type === "CONSUMPTION_REQUEST") {
    outcome = "recorded";
    deadline = new Date(n.signedDate + CONSUMPTION_DEADLINE_MS);
    detail = { reason: n.data?.consumptionRequestReason ?? null };
    // The request joins the refund review queue, where its answer is prefilled from the ledger.
    if (txn) {
      await openRefundReview(tx, {
        tenantId,
        store: STORE,
        requestId: n.notificationUUID,
        transactionId: txn.transactionId,
        orderId: order?.orderId ?? null,
        reason: n.data?.consumptionRequestReason ?? null,
        accountToken: txn.appAccountToken ?? null,
        requestedAt: new Date(n.signedDate),
      });
    }
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
      ({ outcome, detail, refundedAmount } = await followSteps(
        tx,
        {
          tenantId,
          store: STORE,
          order,
          steps: stepsFor(incoming.type, order.state, refundMeasure(txn)),
          // One bizKey per notification: the same notification can never move the order twice.
          bizKey: `${STORE}:${incoming.notificationId}`,
          reason: `App Store ${incoming.type} of transaction ${txn.transactionId}`,
        },
        exceptions,
      ));
    }
  }

  await insertNotification(
    tx,
    {
      tenantId,
      store: STORE,
      notificationId: n.notificationUUID,
      type,
      subtype: n.subtype ?? null,
      environment: (n.data ?? n.summary)?.environment ?? "",
      transactionId: txn?.transactionId ?? null,
      originalTransactionId: txn?.originalTransactionId ?? null,
      orderId: order?.orderId ?? null,
      signedAt: n.signedDate,
      outcome,
      detail,
      deadline,
      payload: evidence,
      refundedAmount,
    },
    { notificationUUID: n.notificationUUID, signedDate: new Date(n.signedDate).toISOString() },
  );
  return { result: "stored", outcome, notificationUUID: n.notificationUUID };
}

import "server-only";
import type { JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";
import type { ExceptionDraft } from "@/lib/orders/decide";
import type { Problem } from "@/lib/problems";
import { refundSteps, type NotificationOutcome } from "@/lib/stores/model";
import { followSteps, inStoreTransaction, insertNotification, lockStoreOrder, refuseNotification, storedOutcome, type Refused } from "@/lib/stores/notifications";
import { developerNotification, notificationType, pushedVoid, STORE, voidBizKey, voidMeasure, type PushBody, type VoidFact } from "./model";
import { checkPushIdentity, verifyPushToken } from "./verify-push-token";

export type Received = { readonly result: "stored" | "duplicate"; readonly outcome: NotificationOutcome; readonly notificationId: string };
export type ReceiveResult = Received | Refused | { readonly result: "unknown-tenant" };

const settingsRow = z.object({ packageName: z.string().nullable(), audience: z.string().nullable(), serviceAccount: z.string().nullable() });

/**
 * One Google Play real-time developer notification, pushed by Pub/Sub for `tenantId`: the push's
 * OIDC token verified (Google's signature, unexpired, for the tenant's audience and service account),
 * the notification for the tenant's package, then stored and acted on in one transaction — so the
 * 2xx Pub/Sub gets means it is stored, and a redelivery of the same messageId changes nothing. A
 * voided purchase refunds the order its orderId paid (applyVoid); every other kind is stored and
 * ignored. What is refused is an audit fact (rate-limited) and nothing else.
 */
export async function receiveGooglePush(input: {
  tenantId: string;
  body: PushBody;
  authorization: string | null;
  issuer: { readonly keys: JWTVerifyGetKey; readonly issuers: readonly string[] };
  now: Date;
}): Promise<ReceiveResult> {
  const { tenantId, body } = input;
  const settings = await maybeOne(
    getPool(),
    settingsRow,
    `SELECT google_package_name AS "packageName", google_push_audience AS "audience", google_push_service_account AS "serviceAccount"
     FROM tenant_settings WHERE tenant_id = $1`,
    [tenantId],
  );
  if (!settings) return { result: "unknown-tenant" };
  const refuse = (code: Refused["code"], problem: Problem): Promise<Refused> => refuseNotification(STORE, tenantId, code, problem);

  const token = await verifyPushToken(input.authorization, input.issuer.keys, input.issuer.issuers, input.now);
  if (!token.ok) return refuse("unauthenticated", { kind: "store-token-invalid", reason: token.reason });
  if (!settings.packageName || !settings.audience || !settings.serviceAccount) return refuse("forbidden", { kind: "store-not-connected", store: STORE });
  const identity = checkPushIdentity(token.claims, { audience: settings.audience, serviceAccount: settings.serviceAccount });
  if (!identity.ok) return refuse("forbidden", { kind: "store-token-invalid", reason: identity.reason });

  const parsed = developerNotification.safeParse(decodeData(body.message.data));
  if (!parsed.success) return refuse("invalid-input", { kind: "invalid-json" });
  const n = parsed.data;
  if (n.packageName !== settings.packageName) return refuse("forbidden", { kind: "store-app-mismatch", field: "packageName", expected: settings.packageName, actual: n.packageName });

  const evidence = { messageId: body.message.messageId, publishTime: body.message.publishTime ?? null, subscription: body.subscription, notification: n };
  const type = notificationType(n);
  const voided = n.voidedPurchaseNotification;
  if (voided) return applyVoid(tenantId, pushedVoid(body.message.messageId, n, voided), evidence);
  return inStoreTransaction("google play notification", async (tx) => {
    const existing = await storedOutcome(tx, tenantId, STORE, body.message.messageId);
    if (existing) return { result: "duplicate", outcome: existing, notificationId: body.message.messageId };
    await insertNotification(
      tx,
      {
        tenantId,
        store: STORE,
        notificationId: body.message.messageId,
        type,
        subtype: null,
        environment: "",
        transactionId: null,
        originalTransactionId: null,
        orderId: null,
        signedAt: n.eventTimeMillis,
        outcome: "ignored",
        detail: {},
        deadline: null,
        payload: evidence,
      },
      { notificationId: body.message.messageId, source: "push", eventTime: new Date(n.eventTimeMillis).toISOString() },
    );
    return { result: "stored", outcome: "ignored", notificationId: body.message.messageId };
  });
}

/** message.data: base64 (standard or URL-safe) of the notification's JSON; anything else is nothing. */
function decodeData(data: string): unknown {
  try {
    return JSON.parse(Buffer.from(data, "base64").toString("utf8"));
  } catch {
    return null;
  }
}

/**
 * A void, pushed or polled, stored once (by its notification id) and followed: the order Google's
 * orderId paid is refunded through transit() as the store — keyed by the orderId, so a push and a
 * poll of the same void refund once — or, for a quantity-based partial void, those units of each
 * line are taken back under the tenant's rules once the poll says how many (the push does not).
 */
export function applyVoid(tenantId: string, fact: VoidFact, evidence: unknown): Promise<Received> {
  return inStoreTransaction("google play void", (tx, exceptions) => storeVoid(tx, tenantId, fact, evidence, exceptions));
}

async function storeVoid(tx: PrismaTransaction, tenantId: string, fact: VoidFact, evidence: unknown, exceptions: ExceptionDraft[]): Promise<Received> {
  // The order first, locked: a push and a poll of one order are judged one at a time.
  const order = await lockStoreOrder(tx, tenantId, STORE, { transactionId: fact.orderId, originalTransactionId: fact.purchaseToken });
  const existing = await storedOutcome(tx, tenantId, STORE, fact.notificationId);
  if (existing) return { result: "duplicate", outcome: existing, notificationId: fact.notificationId };

  const said = { source: fact.source, refundType: fact.refundType, voidedQuantity: fact.voidedQuantity };
  const measure = voidMeasure(fact);
  let outcome: NotificationOutcome = "no-order";
  let detail: Record<string, unknown> = said;
  let refundedAmount: number | null = null;
  if (order && measure === "unknown") {
    // Kept: the poll of the same void says how many units, and acts then.
    outcome = "recorded";
    detail = { ...said, awaiting: "voidedQuantity" };
  } else if (order && measure !== "unknown") {
    const followed = await followSteps(
      tx,
      {
        tenantId,
        store: STORE,
        order,
        // A partial void that would leave nothing is a full refund (followSteps). Google never
        // reverses a void: beyond the order's own state there is no ordering rule, and a push and a
        // poll of the same full void act once (one bizKey).
        steps: refundSteps(order.state, measure),
        bizKey: voidBizKey(fact, measure),
        reason: `Google Play ${measure === null ? "refund" : `partial refund (${fact.voidedQuantity} units)`} of order ${fact.orderId}`,
      },
      exceptions,
    );
    outcome = followed.outcome;
    detail = { ...said, ...followed.detail };
    refundedAmount = followed.refundedAmount;
  }
  await insertNotification(
    tx,
    {
      tenantId,
      store: STORE,
      notificationId: fact.notificationId,
      type: "VOIDED_PURCHASE",
      subtype: fact.refundType === "full" ? "FULL_REFUND" : "QUANTITY_BASED_PARTIAL_REFUND",
      environment: "",
      transactionId: fact.orderId,
      originalTransactionId: fact.purchaseToken,
      orderId: order?.orderId ?? null,
      signedAt: fact.at,
      outcome,
      detail,
      deadline: null,
      payload: evidence,
      refundedAmount,
    },
    { notificationId: fact.notificationId, source: fact.source, eventTime: new Date(fact.at).toISOString() },
  );
  return { result: "stored", outcome, notificationId: fact.notificationId };
}

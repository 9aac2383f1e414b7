import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { countInWindow } from "@/lib/db/rate-window";
import { execute, maybeOne, one } from "@/lib/db/sql";
import { transaction, type PrismaTransaction, type Tx } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import type { ExceptionDraft } from "@/lib/orders/decide";
import { ORDER_STATES } from "@/lib/orders/machine";
import { recordException } from "@/lib/orders/record-exception";
import { moveGoods } from "@/lib/orders/move-goods";
import { refundedMoney } from "@/lib/orders/refund-money";
import type { StoreName } from "@/lib/orders/store-names";
import type { RefundMeasure } from "@/lib/orders/take-back";
import { transitIn } from "@/lib/orders/transit";
import type { Problem } from "@/lib/problems";
import { refundSteps, storeActor, type NotificationOutcome, type StoreStep } from "./model";

// What every store's notification path does the same way (issue 16): refusing what does not verify
// (as a rate-limited audit fact), storing a notification once with its audit fact, locking the order
// a store transaction paid, and following a refund's steps through transit() as the store. Each
// store (lib/stores/apple, lib/stores/google) verifies and reads its own payloads, and decides.

export type Refused = { readonly result: "refused"; readonly code: "unauthenticated" | "forbidden" | "invalid-input"; readonly problem: Problem };

/**
 * Refusals recorded as audit facts per store, tenant and minute (from the first refusal of the
 * minute). The URL is public and a refusal costs the caller nothing, so a row for every one would
 * let anyone grow the audit log; past this many in a minute they are only logged (the same
 * reasoning as the API key throttle's). Counted in the database (lib/db/rate-window.ts), so the cap
 * holds across every web process and machine.
 */
export const REFUSALS_RECORDED_PER_MINUTE = 20;

/** A notification refused before anything was stored: an audit fact of the tenant's (within the rate), nothing else. */
export async function refuseNotification(store: StoreName, tenantId: string, code: Refused["code"], problem: Problem): Promise<Refused> {
  // The count and the fact commit together, so the minute's facts are exactly its first 20
  // refusals: a fact that fails to be written gives its place back, and concurrent refusals wait
  // on the counter's row until this one has decided.
  const recorded = await transaction(
    async (tx: PrismaTransaction) => {
      const window = await countInWindow(tx.client, { scope: "store-refusals", key: `${store}:${tenantId}`, seconds: 60 });
      if (window.count > REFUSALS_RECORDED_PER_MINUTE) return false;
      await audit({ actor: storeActor(store), action: "store.notification-refused", tenantId, target: `tenant:${tenantId}`, detail: { store, problem } }, tx.prisma);
      return true;
    },
    { prisma: true },
  );
  if (!recorded) logger.warn({ tenantId, store, problem }, "store notification refused (audit rows for this minute used up)");
  return { result: "refused", code, problem };
}

/**
 * Stores notifications in one transaction (retried when a concurrent twin won the unique key: the
 * retry then finds it stored), and files the exceptions transit() drafted for refused steps after
 * the commit, like transit()'s own — `work` pushes them onto the list it is given.
 */
export async function inStoreTransaction<R>(label: string, work: (tx: PrismaTransaction, exceptions: ExceptionDraft[]) => Promise<R>): Promise<R> {
  const { result, exceptions } = await transaction(
    async (tx: PrismaTransaction) => {
      const exceptions: ExceptionDraft[] = [];
      return { result: await work(tx, exceptions), exceptions };
    },
    { retry: { label, uniqueViolations: true }, prisma: true },
  );
  for (const exception of exceptions) await recordException(exception);
  return result;
}

const existingRow = z.object({ outcome: z.string() });

/** What a notification already stored did, or null: a store's retry is answered from it. */
export async function storedOutcome(tx: Tx, tenantId: string, store: StoreName, notificationId: string): Promise<NotificationOutcome | null> {
  const existing = await maybeOne(tx.client, existingRow, `SELECT outcome FROM store_notifications WHERE tenant_id = $1 AND store = $2 AND notification_id = $3`, [
    tenantId,
    store,
    notificationId,
  ]);
  return existing ? (existing.outcome as NotificationOutcome) : null;
}

export interface NotificationRow {
  readonly tenantId: string;
  readonly store: StoreName;
  readonly notificationId: string;
  readonly type: string;
  readonly subtype: string | null;
  readonly environment: string;
  readonly transactionId: string | null;
  readonly originalTransactionId: string | null;
  readonly orderId: number | null;
  /** When the store says it happened, ms since the epoch: a transaction's events are ordered by it. */
  readonly signedAt: number;
  readonly outcome: NotificationOutcome;
  readonly detail: Record<string, unknown>;
  readonly deadline: Date | null;
  /** The verified, decoded payload, kept as evidence. */
  readonly payload: unknown;
  /** The money a partial refund of the order moved, or its reversal gave back (followSteps): null when none. */
  readonly refundedAmount?: number | null;
}

/**
 * Stores one notification with what it did, and its audit fact in the same transaction: it joins the
 * order's chain and timeline (what the store said, and what it did), or the tenant's when no order
 * is involved. `fact` is the audit detail beside the type and outcome.
 */
export async function insertNotification(tx: PrismaTransaction, n: NotificationRow, fact: Record<string, unknown>): Promise<void> {
  await execute(
    tx.client,
    `INSERT INTO store_notifications (tenant_id, store, notification_id, type, subtype, environment, transaction_id, original_transaction_id,
                                      order_id, signed_at, outcome, detail, deadline_at, payload, refunded_amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, to_timestamp($10::float8 / 1000), $11, $12, $13, $14, $15)`,
    [
      n.tenantId,
      n.store,
      n.notificationId,
      n.type,
      n.subtype,
      n.environment,
      n.transactionId,
      n.originalTransactionId,
      n.orderId,
      n.signedAt,
      n.outcome,
      JSON.stringify(n.detail),
      n.deadline,
      JSON.stringify(n.payload),
      n.refundedAmount ?? null,
    ],
  );
  await audit(
    {
      actor: storeActor(n.store),
      action: "store.notification",
      tenantId: n.tenantId,
      orderId: n.orderId,
      target: n.transactionId ? `${n.store}:${n.transactionId}` : null,
      detail: {
        type: n.type,
        ...(n.subtype ? { subtype: n.subtype } : {}),
        outcome: n.outcome,
        ...(n.refundedAmount != null ? { refundedAmount: n.refundedAmount } : {}),
        ...fact,
      },
    },
    tx.prisma,
  );
}

const orderRow = z.object({ orderId: z.coerce.number(), tenantId: z.string(), playerId: z.string(), state: z.enum(ORDER_STATES), amount: z.coerce.number() });
export type LockedOrder = z.output<typeof orderRow>;

/**
 * The order a store transaction paid, locked: every notification of one order is then judged one at
 * a time, each seeing what the previous one stored (READ COMMITTED after the lock). A store order's
 * pay bizKey is the store's transaction id (Apple transactionId, Google orderId); the first
 * notification about it records the purchase (with its original transaction id or purchase token)
 * in store_purchases, where later ones find it.
 */
export async function lockStoreOrder(
  tx: Tx,
  tenantId: string,
  store: StoreName,
  purchase: { readonly transactionId: string; readonly originalTransactionId: string },
): Promise<LockedOrder | null> {
  const found = await maybeOne(
    tx.client,
    z.object({ orderId: z.coerce.number() }),
    `(SELECT order_id AS "orderId" FROM store_purchases WHERE tenant_id = $1 AND store = $2 AND transaction_id = $3)
     UNION ALL
     (SELECT order_id FROM order_transitions WHERE tenant_id = $1 AND event = 'pay' AND biz_key = $3 ORDER BY id LIMIT 1)
     LIMIT 1`,
    [tenantId, store, purchase.transactionId],
  );
  if (!found) return null;
  const order = await maybeOne(tx.client, orderRow, `SELECT id AS "orderId", tenant_id AS "tenantId", player_id AS "playerId", state, amount FROM orders WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [found.orderId, tenantId]);
  if (!order) return null;
  await execute(
    tx.client,
    `INSERT INTO store_purchases (tenant_id, store, transaction_id, original_transaction_id, order_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, store, transaction_id) DO NOTHING`,
    [tenantId, store, purchase.transactionId, purchase.originalTransactionId, order.orderId],
  );
  return order;
}

/**
 * A store's steps for a locked order, followed: each event through transit() as the store (source
 * `store`, one bizKey per store fact, so the same fact can never move the order twice), each goods
 * move through moveGoods() under the same bizKey. A refusal ends the steps.
 *
 * `refundedAmount` is the money the steps moved that the order's state does not say (lib/orders/
 * refund-money.ts): a partial refund's share of the amount — followed even when no goods were held to
 * take back, since the store returned the money all the same — or, when a reversal gives back what the
 * order's partial refunds took (give-back, or reverse-refund, whose guard restores every unit taken),
 * minus what they recorded. Null when it moved none: a full refund is the order's `refunded` state.
 */
export async function followSteps(
  tx: Tx,
  input: {
    readonly tenantId: string;
    readonly store: StoreName;
    readonly order: LockedOrder;
    readonly steps: readonly StoreStep[];
    readonly bizKey: string;
    readonly reason: string;
  },
  exceptions: ExceptionDraft[],
): Promise<{ outcome: NotificationOutcome; detail: Record<string, unknown>; refundedAmount: number | null }> {
  const { order, steps } = input;
  const actor = storeActor(input.store);
  const applied: string[] = [];
  let refundedAmount: number | null = null;
  const givenBack = async () => {
    const taken = await partialRefundsHeld(tx, order);
    if (taken !== 0) refundedAmount = (refundedAmount ?? 0) - taken;
  };
  // A partial refund that would leave nothing is a full one: the order's own refund, through transit().
  const queue = [...steps];
  for (let step = queue.shift(); step; step = queue.shift()) {
    if (step.kind === "goods") {
      const moved = await moveGoods(tx, { id: order.orderId, tenantId: order.tenantId, playerId: order.playerId }, step.move, {
        bizKey: input.bizKey,
        actor,
        source: "store",
        reason: input.reason,
      });
      if (moved.result === "no-refund-rule") {
        return { outcome: "refused", detail: { applied, step: step.move.kind, refusal: { kind: "no-refund-rule", lines: moved.lines } }, refundedAmount };
      }
      if (moved.result === "everything") queue.unshift(...refundSteps(order.state));
      if (moved.result === "applied") applied.push(step.move.kind);
      if (moved.result === "applied" || moved.result === "nothing") {
        if (step.move.kind === "take-back") refundedAmount = (refundedAmount ?? 0) + (await partialRefundMoney(tx, order, step.move.measure));
        else await givenBack();
      }
      continue;
    }
    const { result, exception } = await transitIn(tx, { orderId: order.orderId, event: step.event, bizKey: input.bizKey, actor, source: "store", reason: input.reason });
    if (exception) exceptions.push(exception);
    if (result.result !== "applied" && result.result !== "duplicate") {
      return { outcome: "refused", detail: { applied, event: step.event, result: result.result, ...("refusal" in result ? { refusal: result.refusal } : {}) }, refundedAmount };
    }
    if (result.result === "applied" && step.event === "reverse-refund") await givenBack();
    applied.push(step.event);
  }
  const money = refundedAmount === null ? {} : { refundedAmount };
  return applied.length > 0 || refundedAmount !== null
    ? { outcome: "applied", detail: { applied, ...money }, refundedAmount }
    : { outcome: "unchanged", detail: { state: order.state }, refundedAmount };
}

const quantitiesRow = z.object({ quantities: z.array(z.number()) });

/** What a partial refund of `measure` returned of the locked order's amount (lib/orders/refund-money.ts). */
async function partialRefundMoney(tx: Tx, order: LockedOrder, measure: RefundMeasure): Promise<number> {
  const { quantities } = await one(
    tx.client,
    quantitiesRow,
    `SELECT coalesce(array_agg(quantity::int ORDER BY sku), '{}') AS quantities FROM order_lines WHERE tenant_id = $1 AND order_id = $2`,
    [order.tenantId, order.orderId],
  );
  return refundedMoney(order.amount, measure, quantities);
}

/** The money the order's partial refunds took and no reversal gave back yet: what a reversal gives back. */
async function partialRefundsHeld(tx: Tx, order: LockedOrder): Promise<number> {
  const { held } = await one(
    tx.client,
    z.object({ held: z.coerce.number() }),
    `SELECT coalesce(sum(refunded_amount), 0)::bigint AS held FROM store_notifications WHERE tenant_id = $1 AND order_id = $2 AND refunded_amount IS NOT NULL`,
    [order.tenantId, order.orderId],
  );
  return held;
}

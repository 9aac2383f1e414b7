// Cases as the live writers file them, for tests: each scenario drives an order through transit()
// and grant() until the ledger refuses something, and returns the exception row it filed.
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import type { OrderSnapshot } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";

export interface FiledCase {
  readonly caseId: number;
  readonly order: OrderSnapshot;
  readonly txn: string;
}

const caseIdRow = z.object({ id: z.number() });

async function caseOf(order: OrderSnapshot, kind: string): Promise<number> {
  return (await one(getPool(), caseIdRow, `SELECT id FROM order_exceptions WHERE order_id = $1 AND kind = $2 ORDER BY id DESC LIMIT 1`, [order.id, kind])).id;
}

const channel = { actor: "channel:alipay", source: "callback" } as const;

/** Closed by the timeout job, then paid in full by the channel: a payment after close. */
export async function paymentAfterClose(tenantId: string, amount = 18_00): Promise<FiledCase> {
  const order = await createOrder(getPool(), { tenantId, amount, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  await transit({ orderId: order.id, event: "close", bizKey: "timeout", expectedState: "created", actor: "system:timeout-close", source: "job" });
  const txn = `alipay-${order.orderNo}`;
  await transit({ orderId: order.id, event: "pay", bizKey: txn, amount, ...channel });
  return { caseId: await caseOf(order, "payment-after-close"), order, txn };
}

/** The channel reports `paid` for an order of `amount`, still unpaid. */
export async function amountMismatch(tenantId: string, amount: number, paid: number): Promise<FiledCase> {
  const order = await createOrder(getPool(), { tenantId, amount });
  const txn = `alipay-${order.orderNo}`;
  await transit({ orderId: order.id, event: "pay", bizKey: txn, amount: paid, ...channel });
  return { caseId: await caseOf(order, "amount-mismatch"), order, txn };
}

/** The game server confirmed a delivery of 60 gems after granting 20: delivery incomplete. */
export async function deliveryIncomplete(tenantId: string): Promise<FiledCase> {
  const order = await createOrder(getPool(), { tenantId, amount: 6_00, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  const game = { actor: "game:server", source: "api" } as const;
  await transit({ orderId: order.id, event: "pay", bizKey: `alipay-${order.orderNo}`, amount: 6_00, ...channel });
  await transit({ orderId: order.id, event: "begin-delivery", bizKey: "ticket-1", ...game });
  await grant({ orderId: order.id, sku: "gems-60", quantity: 20, grantId: "srv-1", ...game });
  await transit({ orderId: order.id, event: "confirm-delivery", bizKey: "ticket-1", ...game });
  return { caseId: await caseOf(order, "delivery-incomplete"), order, txn: "" };
}

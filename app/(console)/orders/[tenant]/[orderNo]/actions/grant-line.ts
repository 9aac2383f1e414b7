"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { grant } from "@/lib/orders/grant";
import { findOrderId } from "@/lib/orders/queries/api-order";

const input = z.object({
  tenant: z.string().min(1),
  orderNo: z.string().min(1),
  sku: z.string().min(1),
  quantity: z.coerce.number().int("Whole units only.").positive("Grant at least 1."),
  reason: z.string().trim().min(MIN_REASON_LENGTH, `Give a reason of at least ${MIN_REASON_LENGTH} characters.`).max(500),
  /** Made when the form rendered: submitting it twice is one grant. */
  grantKey: z.uuid(),
});

export type GrantLineOutcome =
  | { readonly result: "applied" | "duplicate"; readonly quantity: number }
  | { readonly result: "over-delivery"; readonly expected: number; readonly granted: number; readonly asked: number }
  | { readonly result: "invalid-state"; readonly state: string };

/** A compensating grant on one line (ops): the same ledger rules as every other grant. */
export const grantLine = defineAction({ name: "orders.grant-line", permission: "orders:grant", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `order:${v.tenant}/${v.orderNo}`);
  const orderId = await findOrderId(v.tenant, v.orderNo);
  if (orderId === null) throw new AppError("not-found", `No order ${v.orderNo}.`);

  const result = await grant({ orderId, sku: v.sku, quantity: v.quantity, grantId: `console:${v.grantKey}`, actor, source: "console", reason: v.reason });
  switch (result.result) {
    case "applied":
    case "duplicate":
      return { result: result.result, quantity: result.grant.quantity } satisfies GrantLineOutcome;
    case "over-delivery":
      return { result: "over-delivery", expected: result.line!.quantity, granted: result.line!.granted, asked: v.quantity } satisfies GrantLineOutcome;
    case "invalid-state":
      return { result: "invalid-state", state: result.order.state } satisfies GrantLineOutcome;
    case "unknown-sku":
      throw new AppError("invalid-input", `Order ${v.orderNo} has no line ${v.sku}.`);
    case "invalid-quantity":
      throw new AppError("invalid-input", "Grant a positive whole number.");
    case "not-found":
      throw new AppError("not-found", `No order ${v.orderNo}.`);
  }
});

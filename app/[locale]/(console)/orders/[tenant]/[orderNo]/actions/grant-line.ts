"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { orderScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { reasonInput } from "@/lib/orders/console-event";
import { grant } from "@/lib/orders/grant";
import type { Refusal } from "@/lib/problems";

const input = z.object({
  tenant: z.string().min(1),
  orderNo: z.string().min(1),
  sku: z.string().min(1),
  quantity: z.coerce.number().int().positive(),
  reason: reasonInput,
  /** Made when the form rendered: submitting it twice is one grant. */
  grantKey: z.uuid(),
});

export type GrantLineOutcome =
  | { readonly result: "applied" | "duplicate"; readonly quantity: number }
  | { readonly result: "refused"; readonly refusal: Refusal };

/** A compensating grant on one line (ops): the same ledger rules as every other grant. */
export const grantLine = defineAction(
  { name: "orders.grant-line", permission: "orders:grant", input, scope: orderScope((v: z.output<typeof input>) => v) },
  async (v, { actor, resource: order }): Promise<GrantLineOutcome> => {
    const result = await grant({ orderId: order.id, sku: v.sku, quantity: v.quantity, grantId: `console:${v.grantKey}`, actor, source: "console", reason: v.reason });
    switch (result.result) {
      case "applied":
      case "duplicate":
        return { result: result.result, quantity: result.grant.quantity };
      case "not-found":
        throw new AppError("not-found", { kind: "order-not-found", orderNo: v.orderNo });
      default:
        return { result: "refused", refusal: result.refusal };
    }
  },
);

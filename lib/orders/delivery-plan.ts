// What "repair delivery" (and bulk compensation) would do to one order. Pure: the same plan is
// shown in a dry run and then executed step by step.
import type { RepairProblem } from "@/lib/problems";
import type { OrderState } from "./machine";
import type { LineProgress } from "./progress";

export type DeliveryStep =
  | { readonly kind: "begin-delivery" }
  | { readonly kind: "grant"; readonly sku: string; readonly quantity: number }
  | { readonly kind: "confirm-delivery" };

export type DeliveryPlan =
  | { readonly possible: true; readonly steps: readonly DeliveryStep[] }
  | { readonly possible: false; readonly problem: RepairProblem; readonly nothingToDo: boolean };

export function planDelivery(state: OrderState, lines: readonly LineProgress[]): DeliveryPlan {
  switch (state) {
    case "delivered":
      return { possible: false, nothingToDo: true, problem: { kind: "already-delivered" } };
    case "created":
      return { possible: false, nothingToDo: false, problem: { kind: "not-paid" } };
    case "refunding":
    case "refunded":
    case "closed":
      return { possible: false, nothingToDo: false, problem: { kind: "grants-closed", state } };
    case "paid":
    case "delivering": {
      const grants: DeliveryStep[] = lines.filter((l) => l.pending > 0).map((l) => ({ kind: "grant", sku: l.sku, quantity: l.pending }));
      return {
        possible: true,
        steps: [...(state === "paid" ? [{ kind: "begin-delivery" } as const] : []), ...grants, { kind: "confirm-delivery" }],
      };
    }
  }
}

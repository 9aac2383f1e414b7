import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { Params, termHits } from "./search-orders-statements";

// The header's search box: what someone pastes (any id the console shows: an order no in any
// letter case, a player id, a payment's transaction id, a refund id or receipt, a store's or a
// grant's id) names exactly one order most of the time, and then the agent wants that order, not a
// list with one row. The same lookups as the orders list's search (termHits), in the
// caller's tenants only, as one statement that stops at the second order found.

export type JumpTarget =
  | { readonly kind: "order"; readonly tenantId: string; readonly orderNo: string }
  /** None, or more than one: the orders list with the term shows them (and says which matched how). */
  | { readonly kind: "list" };

const hitRow = z.object({ tenantId: z.string(), orderNo: z.string() });

export async function jumpTarget(scope: readonly string[], term: string): Promise<JumpTarget> {
  const q = term.trim();
  if (q === "" || scope.length === 0) return { kind: "list" };
  const params = new Params();
  const tenants = params.add([...new Set(scope)], "text[]");
  const text = params.add(q, "text");
  // DISTINCT: a term that is both an order's number and its player's id is still one order.
  const found = await rows(
    getPool(),
    hitRow,
    `WITH hit AS (${termHits(tenants, text)})
     SELECT DISTINCT tenant_id AS "tenantId", order_no AS "orderNo" FROM hit LIMIT 2`,
    params.values,
  );
  return found.length === 1 ? { kind: "order", ...found[0]! } : { kind: "list" };
}

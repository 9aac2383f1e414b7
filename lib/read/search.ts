import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { jumpTarget, type JumpTarget } from "@/lib/orders/queries/jump-to-order";

/**
 * Where the search box sends a term: the one order of the caller's products it names, or the
 * orders list with the term (none or several match; the list shows each and how it matched).
 */
export type SearchModel = JumpTarget;

export function readSearch(staff: Staff, term: string): Promise<SearchModel> {
  return jumpTarget(staff.tenantIds, term);
}

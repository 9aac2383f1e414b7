import { redirect } from "next/navigation";
import { requireStaff } from "@/lib/auth/page";
import { orderHref } from "@/components/orders/orders-table";
import { jumpTarget } from "@/lib/orders/queries/jump-to-order";
import { hasNul } from "@/lib/validation";
import { ordersHref } from "@/lib/views/view-filters";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Where the search box sends what was pasted: exactly one order in the caller's products matches →
 * that order's page; none or several → the orders list with the term (which shows each match and
 * how it matched, and says so when there is none). Never a page of its own: a redirect (replacing
 * this address in the history, so Back does not search again).
 */
export default async function SearchPage({ searchParams }: Props) {
  const staff = await requireStaff("orders:view");
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  // What the list cannot search either (too long, a NUL) goes there to be explained beside the form.
  if (q === "" || q.length > 200 || hasNul(q)) redirect(q === "" ? "/orders" : ordersHref({ q }));
  const target = await jumpTarget(staff.tenantIds, q);
  redirect(target.kind === "order" ? orderHref(target.tenantId, target.orderNo) : ordersHref({ q }));
}

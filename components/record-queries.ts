import type { QueryClient } from "@tanstack/react-query";
import type { OrderPageModel } from "@/lib/read/order-page";
import type { PlayerPageCursor, PlayerPageModel } from "@/lib/read/player-page";
import type { RefundReviewModel } from "@/lib/read/refund-reviews";
import { readModel } from "@/lib/read/wire";
import { RECORD_PAGES, recordOfPath } from "@/lib/http/record-pages";

// The record pages' queries, named once: each view reads its record with its query here, and a link
// to the record prefetches the very same query (components/ui/link.tsx), so what a hover read is what
// the view opens from. The routes are the views' own, scoped to the caller: a prefetch reads nothing
// a click would not.

/**
 * How long a prefetched (or shown) record counts as fresh: a hover just before the click is not read
 * again when the view opens; anything older is shown at once from the cache and read again behind it.
 * Part of each query, so the view and the prefetch agree.
 */
const RECORD_FRESH_MS = 5_000;

/** The order page's query: its read model, read again when the order moves or a form changed it. */
export function orderPageQuery(tenant: string, orderNo: string) {
  return {
    queryKey: ["order-page", tenant, orderNo] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      readModel<OrderPageModel>(`/api/console/orders/${encodeURIComponent(tenant)}/${encodeURIComponent(orderNo)}/page`, signal),
    staleTime: RECORD_FRESH_MS,
  };
}

/** The player page's query: one player of one product, one page of their orders (a keyset cursor). */
export function playerPageQuery(tenant: string, playerId: string, cursor: PlayerPageCursor) {
  const query = new URLSearchParams();
  if (cursor.after !== undefined) query.set("after", cursor.after);
  if (cursor.before !== undefined) query.set("before", cursor.before);
  const search = query.toString();
  return {
    queryKey: ["player-page", tenant, playerId, cursor.after ?? null, cursor.before ?? null] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      readModel<PlayerPageModel>(`/api/console/players/${encodeURIComponent(tenant)}/${encodeURIComponent(playerId)}${search ? `?${search}` : ""}`, signal),
    staleTime: RECORD_FRESH_MS,
  };
}

/** The refund reviews list's key; a review's own is under it, so one prefix names both. */
export const REFUND_REVIEWS_KEY = ["refund-reviews"] as const;

/** One refund review's query, under the list's key. */
export function refundReviewQuery(id: string) {
  return {
    queryKey: [...REFUND_REVIEWS_KEY, id] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) => readModel<RefundReviewModel>(`/api/console/refund-reviews/${encodeURIComponent(id)}`, signal),
    staleTime: RECORD_FRESH_MS,
  };
}

/** A record page's query, whichever the record. */
export interface RecordQuery {
  readonly queryKey: readonly unknown[];
  readonly queryFn: (context: { signal?: AbortSignal }) => Promise<unknown>;
  readonly staleTime: number;
}

/**
 * The query of the record page a console link leads to, or null when it leads to no record page
 * (a list, a page with its own query string for filters, another origin). A player link with a
 * cursor (`?after=`) prefetches that page of orders.
 */
export function recordQueryOfHref(href: string): RecordQuery | null {
  const [path = "", search = ""] = href.split("#", 1)[0]!.split("?", 2);
  if (!path.startsWith("/")) return null;
  const order = recordOfPath(RECORD_PAGES.order, path);
  if (order) return orderPageQuery(order.tenant, order.orderNo);
  const player = recordOfPath(RECORD_PAGES.player, path);
  if (player) {
    const query = new URLSearchParams(search);
    return playerPageQuery(player.tenant, player.playerId, { after: query.get("after") ?? undefined, before: query.get("before") ?? undefined });
  }
  const review = recordOfPath(RECORD_PAGES.refundReview, path);
  if (review) return refundReviewQuery(review.id);
  return null;
}

/**
 * Reads a link's record into the cache, unless a fresh copy is there or on its way (one request per
 * record however often the pointer comes back). A failed prefetch is forgotten: the view reads again
 * on its own and shows the refusal as it would have.
 */
export function prefetchRecord(client: QueryClient, query: RecordQuery): void {
  void client.prefetchQuery(query);
}

import "server-only";
import { voidedPurchase, voidedPurchasesPage, type VoidedPurchase } from "./model";

// The Voided Purchases API (androidpublisher v3, purchases.voidedpurchases.list): the purchases of a
// package that were refunded, cancelled or charged back in a time window, a page at a time. Plain
// HTTPS against a base URL, so tests run it against a local fake; the bearer token comes from the
// caller (access-token.ts in production).

/** Google keeps voids for 30 days: a startTime further back is refused, so the window starts a little after. */
export const VOIDED_RETENTION_MS = 30 * 24 * 3_600_000 - 10 * 60_000;
/** Pages read per run at most (1,000 voids each): the rest waits for the next run, from the cursor. */
export const MAX_PAGES = 20;

export class PlayApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "PlayApiError";
  }
}

export interface VoidedWindow {
  readonly baseUrl: string;
  readonly packageName: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly accessToken: string;
  readonly fetch: typeof globalThis.fetch;
}

/**
 * Every void in the window (type=1: one-time products and subscriptions; quantity-based partial
 * refunds included, with their voidedQuantity), following nextPageToken. Entries that are not voided
 * purchases are skipped and counted; an answer that is not a page is an error.
 */
export async function listVoidedPurchases(w: VoidedWindow): Promise<{ voids: VoidedPurchase[]; pages: number; skipped: number }> {
  const voids: VoidedPurchase[] = [];
  let skipped = 0;
  let token: string | undefined;
  let pages = 0;
  do {
    const url = new URL(`/androidpublisher/v3/applications/${encodeURIComponent(w.packageName)}/purchases/voidedpurchases`, w.baseUrl);
    url.searchParams.set("startTime", String(w.startTime));
    url.searchParams.set("endTime", String(w.endTime));
    url.searchParams.set("type", "1");
    url.searchParams.set("includeQuantityBasedPartialRefund", "true");
    url.searchParams.set("maxResults", "1000");
    if (token) url.searchParams.set("token", token);
    const response = await w.fetch(url, { headers: { authorization: `Bearer ${w.accessToken}`, accept: "application/json" }, signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new PlayApiError(response.status, `voided purchases: HTTP ${response.status}`);
    const page = voidedPurchasesPage.safeParse(await response.json().catch(() => null));
    if (!page.success) throw new PlayApiError(response.status, "voided purchases: the answer is not a page of voided purchases");
    pages += 1;
    for (const entry of page.data.voidedPurchases ?? []) {
      const parsed = voidedPurchase.safeParse(entry);
      if (parsed.success) voids.push(parsed.data);
      else skipped += 1;
    }
    token = page.data.tokenPagination?.nextPageToken || undefined;
  } while (token && pages < MAX_PAGES);
  return { voids, pages, skipped };
}

import type { Page, Request, Route } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue 26, item 1: a link to a record reads the record's model when the pointer rests on it or it
// takes focus — never because it is on screen — and the record's view opens from that read at once;
// back and forward show the cached views at once. Item 5: a label and the code beside it are two words.

/** A record page's read model, as its view and a link's prefetch read it (components/record-queries.ts). */
const RECORD_MODEL = /^\/api\/console\/(orders\/[^/]+\/[^/]+\/page|players\/[^/]+\/[^/]+|refund-reviews\/[^/]+)$/;
const ORDER_MODEL = /^\/api\/console\/orders\/[^/]+\/[^/]+\/page$/;
const LIST_MODEL = /^\/api\/console\/orders$/;
/**
 * Model reads the test holds back (slowDown) take this long; what is shown within FROM_CACHE_MS of a
 * click, back or forward came from the cache (a loaded machine's render is slow, never this slow).
 */
const SLOW_MS = 20_000;
const FROM_CACHE_MS = 5_000;
/** The orders list's table, by its caption (messages/en.json orders.table.caption). */
const ORDERS_TABLE = "Orders, newest first";

/** Every record model request the page makes from now on, by path. */
function recordModelRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (RECORD_MODEL.test(path)) seen.push(path);
  });
  return seen;
}

/** Next's router fetches of pages from now on (React Server Component payloads), prefetches apart. */
function pageRequests(page: Page): { prefetches: string[]; navigations: string[] } {
  const seen = { prefetches: [] as string[], navigations: [] as string[] };
  page.on("request", (request: Request) => {
    const headers = request.headers();
    if (headers["rsc"] !== "1") return;
    (headers["next-router-prefetch"] ? seen.prefetches : seen.navigations).push(new URL(request.url()).pathname);
  });
  return seen;
}

/** Holds every later request of `pattern` for `ms` before it goes on: what is shown before then came from the cache. */
async function slowDown(page: Page, pattern: RegExp, ms: number): Promise<void> {
  await page.route(
    (url) => pattern.test(url.pathname),
    async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.continue().catch(() => undefined);
    },
  );
}

/** Records whether a loading view (aria-busy, with its grey blocks) was ever put on the page from now on. */
async function watchLoading(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { loadingSeen: boolean };
    w.loadingSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[aria-busy="true"]')) w.loadingSeen = true;
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
}

const loadingSeen = (page: Page) => page.evaluate(() => (window as unknown as { loadingSeen: boolean }).loadingSeen);

async function openOrdersList(page: Page) {
  await page.goto("/orders");
  const table = page.getByRole("table", { name: ORDERS_TABLE });
  const orderLinks = table.locator('a[href^="/orders/"]');
  // A first view of each web process on this shared machine can be slow: the waits below are the claims.
  await expect(orderLinks.nth(4)).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState("networkidle");
  return orderLinks;
}

test("prefetch: a list of links reads no record until one is hovered; the hover reads it once, and the click shows it with no new wait", async ({ page }) => {
  await signIn(page, "agent@example.com");
  const models = recordModelRequests(page);
  const pages = pageRequests(page);
  const orderLinks = await openOrdersList(page);
  const links = await orderLinks.count();
  expect(links).toBeGreaterThan(4);
  // Every order and player link of the list is on screen; none of them is read for being there, and
  // Next's router prefetches none of their pages.
  await page.waitForTimeout(1_000);
  expect(models).toEqual([]);
  expect(pages.prefetches).toEqual([]);

  // Passing over the rows on the way somewhere else reads nothing: the pointer never rests on a link.
  // The crossing is the browser's own events (mouseout, mouseover: what React's enter and leave are
  // made of) dispatched in one go, so a slow moment of the loaded machine cannot make it rest.
  await page.evaluate(() => {
    const links = [...document.querySelectorAll('table a[href^="/orders/"], table a[href^="/players/"]')].slice(0, 10);
    const cross = (from: Element, to: Element) => {
      from.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, relatedTarget: to }));
      to.dispatchEvent(new MouseEvent("mouseover", { bubbles: true, relatedTarget: from }));
    };
    let at: Element = document.querySelector("h1")!;
    for (const link of [...links, document.querySelector("h1")!]) {
      cross(at, link);
      at = link;
    }
  });
  await page.waitForTimeout(500);
  expect(models).toEqual([]);
  expect(pages.prefetches).toEqual([]);

  // Resting on one link reads that order's model, once, however often the pointer comes back.
  const link = orderLinks.nth(2);
  const href = (await link.getAttribute("href"))!;
  const orderNo = decodeURIComponent(href.split("/").at(-1)!);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/console${href}/page`);
  await link.hover();
  expect((await answered).status()).toBe(200);
  await page.mouse.move(5, 5);
  await link.hover();
  await page.waitForTimeout(500);
  expect(models).toEqual([`/api/console${href}/page`]);
  // The hover prefetched that order's page too (its shell), and no other.
  expect(pages.prefetches.length).toBeGreaterThan(0);
  expect(new Set(pages.prefetches)).toEqual(new Set([href]));
  pages.navigations.splice(0);

  // From now on the order's model takes SLOW_MS to arrive: the view the click opens shows the order's
  // data (its heading is drawn from the model) well before, so it came from the hover's read.
  await slowDown(page, ORDER_MODEL, SLOW_MS);
  const t0 = Date.now();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: orderNo, exact: true })).toBeVisible({ timeout: FROM_CACHE_MS });
  const shownMs = Date.now() - t0;
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  expect(models.filter((p) => ORDER_MODEL.test(p))).toEqual([`/api/console${href}/page`]);
  // Nor did the click wait on the page: the router had it from the hover.
  expect(pages.navigations).toEqual([]);
  test.info().annotations.push({ type: "hover to order view", description: `${shownMs} ms` });
});

test("prefetch: keyboard focus on a link reads its record once", async ({ page }) => {
  await signIn(page, "agent@example.com");
  const models = recordModelRequests(page);
  const orderLinks = await openOrdersList(page);
  expect(models).toEqual([]);
  const link = orderLinks.nth(1);
  const href = (await link.getAttribute("href"))!;
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/console${href}/page`);
  await link.focus();
  expect((await answered).status()).toBe(200);
  await page.waitForTimeout(500);
  expect(models).toEqual([`/api/console${href}/page`]);
});

test("prefetch: back and forward show the cached list and order at once, with no loading view", async ({ page }) => {
  await signIn(page, "agent@example.com");
  const orderLinks = await openOrdersList(page);
  const firstOrderNo = (await orderLinks.first().textContent())!.trim();
  const href = (await orderLinks.nth(3).getAttribute("href"))!;
  const orderNo = decodeURIComponent(href.split("/").at(-1)!);
  await orderLinks.nth(3).click();
  const heading = page.getByRole("heading", { level: 1, name: orderNo, exact: true });
  await expect(heading).toBeVisible();
  await page.waitForLoadState("networkidle");

  // Both models now take SLOW_MS to arrive: whatever back and forward show sooner is the cache's.
  await slowDown(page, ORDER_MODEL, SLOW_MS);
  await slowDown(page, LIST_MODEL, SLOW_MS);
  await watchLoading(page);
  await page.goBack();
  await expect(page.getByRole("table", { name: ORDERS_TABLE }).getByRole("link", { name: firstOrderNo, exact: true })).toBeVisible({ timeout: FROM_CACHE_MS });
  await expect(page).toHaveURL(/\/orders$/);
  await page.goForward();
  await expect(heading).toBeVisible({ timeout: FROM_CACHE_MS });
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  expect(await loadingSeen(page)).toBe(false);
});

test("accessible names: a settings field's label and the state's code beside it read as two words", async ({ page }) => {
  await signIn(page, "manager@example.com");
  await page.goto("/settings");
  const dwell = page.getByTestId(/^dwell-form-/).first();
  await expect(dwell).toBeVisible({ timeout: 20_000 });
  await expect(dwell.getByRole("spinbutton", { name: "Paid paid", exact: true })).toBeVisible();
  await expect(dwell.getByRole("spinbutton", { name: "Refund in progress refunding", exact: true })).toBeVisible();
});

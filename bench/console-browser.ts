// 8. Console in a browser: what one view of the order page and of the orders list costs the server
// in CPU, against the integration API's read of the same order. A real browser (Debian chromium
// through Playwright) makes every request a person's view makes — the document, React Server
// Component payloads, <Link> prefetches, the live poll, static files — which autocannon's one GET
// (console-load) does not. CPU time is read from /proc, not timed: the browser shares the 2 cores.
import { chromium, type Page, type Request } from "@playwright/test";
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { DEMO_PASSWORD } from "@/lib/seed/staff";
import en from "@/messages/en.json";
import { seedConsoleData } from "./lib/console-data";
import { withFreshDatabase } from "./lib/db";
import { agent, request, signIn } from "./lib/http";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { startConsole, webMs } from "./lib/server";
import { count, ms, percentile, sleep } from "./lib/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3750);
const EMAIL = "agent@example.com";
const TENANT = "fangzhou";
const ROUNDS = 2;
/** A view is over once no request has been in flight for this long, so its prefetches are counted. */
const QUIET_MS = 500;
/** One API read costs a few ms and /proc counts whole 10 ms ticks per process: each API series reads its N orders this many times over. */
const API_REPEAT = 10;
const TABS = 5;
/** Before an idle window: the loads just made leave the web processes work to finish (garbage collection) that is theirs, not the idle page's. */
const SETTLE_MS = 5_000;
const TARGET = { order: 3, list: 4, idleMsPerS: 1, firstByteP50: 5 };
/** How long the pointer rests on an order link before the click, as a person's hand does (components/ui/link.tsx reads after 80 ms). */
const HOVER_DWELL_MS = 300;
/** Sequential document requests per page for the first-byte probe. */
const FIRST_BYTE_REQUESTS = 200;

const KINDS = ["document", "rsc", "prefetch", "api", "static", "other"] as const;
type Kind = (typeof KINDS)[number];
type Counts = Record<Kind, number>;
const noRequests = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Counts;

function kindOf(req: Request): Kind {
  const url = new URL(req.url());
  const headers = req.headers();
  if (req.resourceType() === "document") return "document";
  // Next's router fetches RSC payloads with an `rsc` header (and a `_rsc` cache-busting query); its
  // prefetches add `next-router-prefetch`.
  if (headers["rsc"] === "1" || url.searchParams.has("_rsc")) return headers["next-router-prefetch"] ? "prefetch" : "rsc";
  if (url.pathname.startsWith("/api/")) return "api";
  if (url.pathname.startsWith("/_next/static/") || ["script", "stylesheet", "font", "image"].includes(req.resourceType())) return "static";
  return "other";
}

/**
 * Counts a page's requests by kind (and, through Chrome's protocol, those its cache answered, which
 * Playwright reports like any other), and waits until its network has been quiet for QUIET_MS.
 */
async function watch(page: Page) {
  const counts = noRequests();
  const paths = new Map<Kind, string[]>(KINDS.map((k) => [k, []]));
  const cached = new Set<string>();
  let inFlight = 0;
  let lastChange = performance.now();
  page.on("request", (req) => {
    const kind = kindOf(req);
    counts[kind]++;
    paths.get(kind)!.push(new URL(req.url()).pathname);
    inFlight++;
    lastChange = performance.now();
  });
  const finished = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = performance.now();
  };
  page.on("requestfinished", finished).on("requestfailed", finished);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.requestServedFromCache", (e) => cached.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => void (e.response.fromDiskCache && cached.add(e.requestId)));
  return {
    counts,
    paths,
    cached: () => cached.size,
    reset() {
      KINDS.forEach((k) => (counts[k] = 0));
      cached.clear();
    },
    async quiet(timeoutMs = 20_000): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      while (inFlight > 0 || performance.now() - lastChange < QUIET_MS) {
        if (performance.now() > deadline) throw new Error(`${page.url()}: still ${inFlight} requests in flight after ${timeoutMs} ms`);
        await sleep(50);
      }
    },
  };
}

const perView = (counts: Counts, cached: number, views: number) =>
  `${KINDS.map((k) => `${k} ${(counts[k] / views).toFixed(2)}`).join(", ")}; of all these, ${(cached / views).toFixed(2)} answered by the browser's cache`;

export const consoleBrowserBench: Bench = {
  name: "console-browser",
  title: "8. Console in a browser: server CPU per order page and list view, against one API read",
  async run({ args, log }) {
    const orders = args.quick ? 20_000 : 100_000;
    const views = args.quick ? 20 : 40;
    const idleSeconds = args.quick ? 10 : 30;
    return withFreshDatabase("console_browser", async (db) => {
      const pool = getPool();
      log(`seeding ${count(orders)} orders`);
      const seeded = await seedConsoleData(pool, orders);
      const { key } = await createApiKey({ tenantId: TENANT, name: "bench", actor: "system:bench" });
      // Different orders in each round (and for warm-up and the idle pages); the API reads the same ones.
      const { rows } = await pool.query<{ order_no: string }>(
        `SELECT order_no FROM orders TABLESAMPLE BERNOULLI (5) REPEATABLE (7) WHERE tenant_id = $1 LIMIT $2`,
        [TENANT, (ROUNDS + 1) * views + TABS],
      );
      const sample = rows.map((r) => r.order_no);
      if (sample.length < (ROUNDS + 1) * views + TABS) throw new Error(`only ${sample.length} sample orders`);
      const orderPath = (orderNo: string) => `/orders/${TENANT}/${encodeURIComponent(orderNo)}`;

      const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "console-browser", log });
      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
      });
      try {
        const context = await browser.newContext({ baseURL: server.url });
        const page = await context.newPage();
        await page.goto("/sign-in");
        await page.getByLabel("Email").fill(EMAIL);
        await page.getByLabel("Password").fill(DEMO_PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByTestId("signed-in-as").filter({ hasText: EMAIL }).waitFor({ timeout: 30_000 });
        const w = await watch(page);

        // Waits on what a person sees in the DOM, not on the HTML document: the order page will soon
        // render its data on the client from a JSON route after the shell loads.
        const orderShown = (p: Page, orderNo: string) => p.getByRole("heading", { level: 1, name: orderNo, exact: true }).waitFor();
        const listRows = page.getByRole("table", { name: en.orders.table.caption }).getByRole("row").filter({ has: page.getByRole("link") });
        const view = async (path: string, shown: () => Promise<void>) => {
          w.paths.forEach((list) => list.splice(0));
          const response = await page.goto(path);
          if (response?.status() !== 200) throw new Error(`GET ${path} answered ${response?.status()}`);
          await shown();
          await w.quiet();
        };
        const viewOrder = (orderNo: string) => view(orderPath(orderNo), () => orderShown(page, orderNo));
        const viewList = () => view("/orders", () => listRows.first().waitFor());
        const http = agent(1);
        const readApi = async (orderNo: string) => {
          const answer = await request(`${server.url}/api/v1/orders/${encodeURIComponent(orderNo)}`, { agent: http, headers: { authorization: `Bearer ${key}` } });
          if (answer.status !== 200) throw new Error(`GET /api/v1/orders/${orderNo} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
        };

        /** Web-process CPU of `work`; the page is left on about:blank so its live poll stops. */
        const measure = async (work: () => Promise<void>) => {
          const before = server.processCpu();
          const t0 = performance.now();
          await work();
          const after = server.processCpu();
          await page.goto("about:blank");
          return { web: webMs(before, after), worker: after.worker - before.worker, seconds: (performance.now() - t0) / 1000 };
        };

        log("warm-up");
        for (const orderNo of sample.slice(ROUNDS * views, ROUNDS * views + 5)) await viewOrder(orderNo);
        for (let i = 0; i < 5; i++) await viewList();
        for (const orderNo of sample.slice(ROUNDS * views)) await readApi(orderNo);
        await page.goto("about:blank");

        // From a link to the order's view with its data, in the browser's own clock: a click with no
        // hover before it (cold: the view reads its model after the click) against a hover resting
        // HOVER_DWELL_MS on the link, then the click (the link read the model on intent). Each trial
        // starts from a fresh load of the list (an empty query cache), on a different order; the two
        // kinds alternate, so a slow spell of the machine falls on both alike.
        log(`hover to view: ${views} cold clicks and ${views} clicks after a ${HOVER_DWELL_MS} ms hover, alternating`);
        const listOrderLinks = page.getByRole("table", { name: en.orders.table.caption }).locator('a[href^="/orders/"]');
        const clickToView = { cold: [] as number[], hovered: [] as number[], hoverToView: [] as number[], modelAnswered: [] as number[] };
        for (let i = 0; i < 2 * views; i++) {
          const hovered = i % 2 === 1;
          await viewList();
          const link = listOrderLinks.nth(i % Math.max(1, await listOrderLinks.count()));
          const href = (await link.getAttribute("href"))!;
          const orderNo = decodeURIComponent(href.split("/").at(-1)!);
          // When the order's heading (drawn from its model) is first on the page, and when its model answered.
          await page.evaluate(
            ({ orderNo, model }) => {
              const w = window as unknown as { benchShown: Promise<number>; benchModel: number | null };
              w.benchModel = null;
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) if (new URL(entry.name).pathname === model && w.benchModel === null) w.benchModel = entry.startTime + entry.duration;
              }).observe({ type: "resource" });
              // No named functions in here: tsx's helpers for their names do not exist in the page.
              w.benchShown = new Promise((resolve, reject) => {
                setTimeout(() => reject(new Error(`order ${orderNo}: its heading was not drawn within 30 s`)), 30_000);
                new MutationObserver((_, observer) => {
                  if (document.querySelector("h1#order-heading")?.textContent?.trim() !== orderNo) return;
                  observer.disconnect();
                  resolve(performance.now());
                }).observe(document.body, { childList: true, subtree: true, characterData: true });
              });
            },
            { orderNo, model: `/api/console${href}/page` },
          );
          if (hovered) {
            // The hover begins when the pointer's event reaches the link, not when Playwright starts moving it.
            await link.evaluate((a: HTMLAnchorElement) => {
              const w = window as unknown as { benchHoverAt: number };
              a.addEventListener("mouseover", () => (w.benchHoverAt = performance.now()), { once: true });
            });
            await link.hover();
            await sleep(HOVER_DWELL_MS);
          }
          // The click itself, without moving the pointer (a cold click must not hover first).
          const clickAt = await link.evaluate((a: HTMLAnchorElement) => {
            const at = performance.now();
            a.click();
            return at;
          });
          const shownAt = await page.evaluate(() => (window as unknown as { benchShown: Promise<number> }).benchShown);
          if (hovered) {
            const hoverAt = await page.evaluate(() => (window as unknown as { benchHoverAt: number }).benchHoverAt);
            clickToView.hovered.push(shownAt - clickAt);
            clickToView.hoverToView.push(shownAt - hoverAt);
            const model = await page.evaluate(() => (window as unknown as { benchModel: number | null }).benchModel);
            if (model !== null) clickToView.modelAnswered.push(model - hoverAt);
          } else clickToView.cold.push(shownAt - clickAt);
          await w.quiet();
        }
        await page.goto("about:blank");
        const median = (xs: number[]) => percentile(xs, 50);

        // Alternating, so a slow spell of the shared machine falls on every side alike.
        const total = { order: 0, api: 0, list: 0, worker: 0, seconds: 0 };
        const requests = { order: noRequests(), list: noRequests() };
        const cached = { order: 0, list: 0 };
        /** What the last view of each page prefetched, and its requests of no known kind. */
        const lastView = { order: "", list: "" };
        const rounds: string[] = [];
        const series = async (side: "order" | "list" | "api", work: () => Promise<void>) => {
          w.reset();
          const m = await measure(work);
          total[side] += m.web;
          total.worker += m.worker;
          total.seconds += m.seconds;
          if (side !== "api") {
            KINDS.forEach((k) => (requests[side][k] += w.counts[k]));
            cached[side] += w.cached();
            const some = (kind: Kind) => {
              const distinct = [...new Set(w.paths.get(kind))];
              return `${w.paths.get(kind)!.length} requests for ${distinct.length} paths (${distinct.slice(0, 8).join(" ")}${distinct.length > 8 ? " …" : ""})`;
            };
            lastView[side] = `prefetch ${some("prefetch")}, other ${some("other")}`;
          }
          return m.web;
        };
        for (let round = 0; round < ROUNDS; round++) {
          const mine = sample.slice(round * views, (round + 1) * views);
          const o = await series("order", async () => {
            for (const orderNo of mine) await viewOrder(orderNo);
          });
          const readAll = async () => {
            for (let i = 0; i < API_REPEAT; i++) for (const orderNo of mine) await readApi(orderNo);
          };
          const a1 = await series("api", readAll);
          const l = await series("list", async () => {
            for (let i = 0; i < views; i++) await viewList();
          });
          const a2 = await series("api", readAll);
          rounds.push(`round ${round + 1}: order ${ms(o / views)}, API ${ms((a1 + a2) / (2 * views * API_REPEAT))}, list ${ms(l / views)}`);
          log(rounds.at(-1)!);
        }
        http.destroy();
        const perOrder = total.order / (ROUNDS * views);
        const perList = total.list / (ROUNDS * views);
        const perApi = total.api / (2 * ROUNDS * views * API_REPEAT);
        await viewList();
        const listRowsShown = await listRows.count();
        await page.goto("about:blank");

        /** Web CPU per page per second with `tabs` settled order pages open and idle (their live polls running). */
        const idle = async (tabs: number) => {
          const pages = await Promise.all(Array.from({ length: tabs }, () => context.newPage()));
          const watched = await Promise.all(pages.map(watch));
          for (const [i, p] of pages.entries()) {
            const orderNo = sample.at(-1 - i)!;
            await p.goto(orderPath(orderNo));
            await orderShown(p, orderNo);
            await watched[i]!.quiet();
          }
          await sleep(SETTLE_MS);
          watched.forEach((x) => x.reset());
          const m = await measure(() => sleep(idleSeconds * 1000));
          const polls = watched.reduce((n, x) => n + x.counts.api, 0) / tabs;
          await Promise.all(pages.map((p) => p.close()));
          return { msPerS: m.web / m.seconds / Math.max(tabs, 1), polls };
        };
        log(`idle: no page, 1 page, ${TABS} pages, ${idleSeconds} s each`);
        const none = await idle(0);
        const one = await idle(1);
        const five = await idle(TABS);
        const processes = server.processCpu().web.size;

        // A shell's first byte, as a browser asks for the document (HTML, compressed), signed in.
        log(`first byte: ${FIRST_BYTE_REQUESTS} sequential requests for each shell`);
        const session = await signIn(server.url, EMAIL, DEMO_PASSWORD);
        const documents = agent(1);
        const firstByte = async (path: (i: number) => string) => {
          const samples: number[] = [];
          for (let i = 0; i < FIRST_BYTE_REQUESTS; i++) {
            const answer = await request(`${server.url}${path(i)}`, {
              agent: documents,
              headers: { cookie: session, accept: "text/html", "accept-encoding": "gzip, deflate, br" },
            });
            if (answer.status !== 200 || !answer.headers["content-type"]?.startsWith("text/html")) throw new Error(`GET ${path(i)} answered ${answer.status}`);
            samples.push(answer.firstByteMs);
          }
          return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
        };
        const orderShell = await firstByte((i) => orderPath(sample[i % sample.length]!));
        const listShell = await firstByte(() => "/orders");

        // Where a view's CPU goes: each request a view makes, alone, sequentially, signed in.
        log(`per request: ${FIRST_BYTE_REQUESTS} sequential requests of each kind`);
        const perRequest = async (path: (i: number) => string, accept: string) => {
          const before = server.processCpu();
          for (let i = 0; i < FIRST_BYTE_REQUESTS; i++) {
            const answer = await request(`${server.url}${path(i)}`, { agent: documents, headers: { cookie: session, accept, "accept-encoding": "gzip, deflate, br" } });
            if (answer.status !== 200) throw new Error(`GET ${path(i)} answered ${answer.status}`);
          }
          return webMs(before, server.processCpu()) / FIRST_BYTE_REQUESTS;
        };
        const orderNoOf = (i: number) => sample[i % sample.length]!;
        const costs = {
          "order shell document": await perRequest((i) => orderPath(orderNoOf(i)), "text/html"),
          "frame model (/api/console/me)": await perRequest(() => "/api/console/me", "application/json"),
          "order page model": await perRequest((i) => `/api/console${orderPath(orderNoOf(i))}/page`, "application/json"),
          "orders list model": await perRequest(() => `/api/console/orders?${new URLSearchParams({ query: "" })}`, "application/json"),
          "live poll (order version)": await perRequest((i) => `/api/console${orderPath(orderNoOf(i))}`, "application/json"),
        };
        documents.destroy();

        const ratio = (x: number) => x / perApi;
        const metrics: Metric[] = [
          { name: "order page view: web CPU per view", value: ms(perOrder) },
          { name: "API read (`GET /api/v1/orders/{orderNo}`): web CPU per read", value: ms(perApi) },
          { name: "order page view CPU / API read CPU", value: `${ratio(perOrder).toFixed(1)}×`, target: `≤ ${TARGET.order}×`, met: ratio(perOrder) <= TARGET.order },
          { name: "orders list view: web CPU per view", value: ms(perList) },
          { name: "orders list view CPU / API read CPU", value: `${ratio(perList).toFixed(1)}×`, target: `≤ ${TARGET.list}×`, met: ratio(perList) <= TARGET.list },
          { name: "requests per order page view", value: perView(requests.order, cached.order, ROUNDS * views) },
          { name: "requests per orders list view", value: perView(requests.list, cached.list, ROUNDS * views) },
          ...[
            { name: "idle order page: web CPU", tabs: 1, at: one },
            { name: `${TABS} idle order pages at once: web CPU per page`, tabs: TABS, at: five },
          ].map(({ name, tabs, at }) => ({
            name,
            value: `${at.msPerS.toFixed(2)} ms/s (${(at.msPerS - none.msPerS / tabs).toFixed(2)} above no page open; ${(at.polls / idleSeconds).toFixed(2)} polls/s per page)`,
            target: `< ${TARGET.idleMsPerS} ms/s`,
            met: at.msPerS < TARGET.idleMsPerS,
          })),
          ...[
            { name: "order page shell: first byte", at: orderShell },
            { name: "orders list shell: first byte", at: listShell },
          ].map(({ name, at }) => ({
            name,
            value: `p50 ${ms(at.p50)}, p95 ${ms(at.p95)}`,
            target: `p50 ≤ ${TARGET.firstByteP50} ms`,
            met: at.p50 <= TARGET.firstByteP50,
          })),
          {
            name: "click to the order's view with its data: cold click, and click after a hover",
            value: `cold p50 ${ms(median(clickToView.cold))} (p95 ${ms(percentile(clickToView.cold, 95))}); after a ${HOVER_DWELL_MS} ms hover p50 ${ms(median(clickToView.hovered))} (p95 ${ms(percentile(clickToView.hovered, 95))}); hovered ÷ cold ${(median(clickToView.hovered) / median(clickToView.cold)).toFixed(2)}`,
          },
          {
            name: "hover to the order's view with its data (hover, rest, click)",
            value: `p50 ${ms(median(clickToView.hoverToView))} (p95 ${ms(percentile(clickToView.hoverToView, 95))}); the hover's model read answered p50 ${ms(median(clickToView.modelAnswered))} after the hover began (${clickToView.modelAnswered.length} of ${clickToView.hoverToView.length} seen)`,
          },
          { name: "where a view's CPU goes: web CPU per request, each kind alone", value: Object.entries(costs).map(([kind, cost]) => `${kind} ${ms(cost)}`).join("; ") },
          { name: "context: web processes with no page open", value: `${none.msPerS.toFixed(2)} ms/s` },
          { name: "context: worker CPU during the view and API series", value: `${(total.worker / total.seconds).toFixed(2)} ms/s` },
        ];
        return {
          metrics,
          notes: [
            `Fresh database with ${count(seeded.rows.orders)} orders (seedDemo, dense), the demo staff, external delivery (idle worker); \`npm start\` with ${processes} web processes. Chromium ${browser.version()} (headless, one context) signed in through the form as ${EMAIL}.`,
            `CPU is utime + stime from /proc/<pid>/stat of the web processes in \`npm start\`'s process group, summed, before and after each series; the worker is read apart, and PostgreSQL's CPU is not counted on either side.`,
            `${ROUNDS} rounds of: ${views} order page views (different ${TENANT} orders each round), the API reading those orders ${API_REPEAT} times over (${views * API_REPEAT} sequential reads, one kept-alive connection, Bearer key of ${TENANT}), ${views} views of \`/orders\` (${listRowsShown} rows with a link), the API again. A view is \`page.goto\`, then the order's h1 (or a table row with a link) visible, then no request in flight for ${QUIET_MS} ms, so prefetches and the first live poll are counted; after each series the page goes to about:blank.`,
            `Per round (web CPU per view or read): ${rounds.join("; ")}.`,
            `Requests by kind as Playwright reports them, including those the browser's cache answered (counted apart through Chrome's protocol): document; rsc = React Server Component fetches (\`rsc\` header or \`_rsc\` query), prefetch = those with \`next-router-prefetch\`; api = fetch/xhr to /api; static = /_next/static and other scripts, styles, fonts, images. Each view is a full page load (a fresh tab's router cache), so every prefetch reaches the server.`,
            `The last order page view: ${lastView.order}. The last list view: ${lastView.list}.`,
            `Hover to view: ${2 * views} trials alternating, each from a fresh load of \`/orders\` (an empty query cache) on a different row's order. Cold: the link is clicked with \`HTMLElement.click()\` (no pointer over it, no focus, so nothing is read before the click). Hovered: Playwright's hover (pointer on the link), ${HOVER_DWELL_MS} ms, then the same click. Times are the page's own clock (performance.now()): from the click (or the hover's mouseover event on the link) until the order's heading, which the view draws from the model, is in the DOM (a MutationObserver); the model read's end from the Resource Timing entry.`,
            `First byte: ${FIRST_BYTE_REQUESTS} sequential GETs of each shell's document (different orders for the order page) over one kept-alive connection, with the session cookie and a browser's Accept and Accept-Encoding; the time until the status line and headers arrived.`,
            `Idle: order pages (in tabs of one browser, each polling as if in front) left open ${idleSeconds} s from ${SETTLE_MS / 1000} s after their network went quiet; web CPU per page per second, including the web processes' own idle work (the no-page line, shared by the ${TABS} pages).`,
          ],
        };
      } finally {
        await browser.close();
        await server.stop();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(consoleBrowserBench);

// 4. Console under load: views of the order page and of the orders list, signed in, against the
// production server (`npm start` → next start + worker) on a fresh database seeded by the bulk seeder.
// A view is what the browser now asks for: the HTML document (a thin shell since issue 25) and then
// the page's read model from its JSON route. Timing the document alone would time the cheap half of
// a view and call it the page. In the paced run (the target's), a view also reads the frame's model
// (`/api/console/me`: who is signed in, the saved views), as a full page load does.
import type http from "node:http";
import autocannon from "autocannon";
import { getPool } from "@/lib/db/pool";
import { seedConsoleData } from "./lib/console-data";
import { withFreshDatabase } from "./lib/db";
import { agent, request, signIn } from "./lib/http";

/** The console frame's read model, read on every full page load. */
const FRAME_MODEL = "/api/console/me";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { startConsole } from "./lib/server";
import { count, ms, perSecond, sleep, summarize } from "./lib/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3700);
const CONNECTIONS = 50;
const TARGET_P95_MS = 150;
const MAX_RSS_MB = 500;
/** The issue's target: 50 agents who each open a page every 5 s while their open order pages poll. */
const AGENTS = 50;
const AGENT_PAUSE_S = 5;
/** components/orders/live-order.tsx: refetchInterval of the version probe. */
const POLL_S = 3;
/** A browser's connections per host over HTTP/1.1: an agent's poll does not queue behind its view. */
const BROWSER_SOCKETS = 6;
const EMAIL = "manager@example.com";
const PASSWORD = "orderops-demo";

/** One page view's two requests: the shell, then the read model the shell fetches. */
interface ViewPaths {
  readonly document: string;
  readonly model: string;
}

/** What one run measured, per request kind and per view (document + model of the same view). */
interface Samples {
  readonly document: number[];
  readonly model: number[];
  /** Document time + model time, for views whose two answers were both 200. */
  readonly view: number[];
  /** Status → count over both kinds; 0 for a request that failed without an answer. */
  readonly statuses: Map<number, number>;
}

const noSamples = (): Samples => ({ document: [], model: [], view: [], statuses: new Map() });

interface LoadRun extends Samples {
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
}

/** Requests that were not a 200: other statuses, connection errors and timeouts. */
const failed = (run: { readonly statuses: Map<number, number>; readonly errors?: number; readonly timeouts?: number }) =>
  [...run.statuses].reduce((n, [status, times]) => n + (status === 200 ? 0 : times), 0) + (run.errors ?? 0) + (run.timeouts ?? 0);

/** The per-connection state autocannon hands to each step of a sequence (reset when it starts over). */
interface ViewContext {
  view?: ViewPaths;
  sentAt?: number;
  documentMs?: number;
  documentStatus?: number;
}

/**
 * autocannon with `connections` each keeping one view in flight: a two-step sequence per connection,
 * the document then the model of the same view, as the browser asks for them; views rotate over
 * `views`. Each step is timed from when autocannon builds it (right before writing it) to its whole
 * answer, so the two times of a view can be added up; the model is sent the moment the document is
 * answered, so the sum is the server's share of what the person waits for (the browser's own work
 * between the two is not in it). autocannon shares a step's built request between connections, so a
 * connection's very first document may be another connection's order; its time is as good.
 *
 * Not used for the paced run: autocannon's rate limit counts requests, not sequences, in whole
 * requests per second per connection, caps the connections at the overall rate and releases every
 * connection on the same tick — 10 views/s became 10 connections firing together once a second.
 */
async function load(baseUrl: string, cookie: string, views: readonly ViewPaths[], connections: number, seconds: number): Promise<LoadRun> {
  let next = 0;
  const samples = noSamples();
  const tally = (status: number) => samples.statuses.set(status, (samples.statuses.get(status) ?? 0) + 1);
  const t0 = performance.now();
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    headers: { cookie },
    requests: [
      {
        method: "GET",
        setupRequest: (req, context: ViewContext) => {
          context.view = views[next++ % views.length]!;
          context.sentAt = performance.now();
          return { ...req, path: context.view.document, headers: { ...req.headers, accept: "text/html" } };
        },
        onResponse: (status, _body, context: ViewContext) => {
          tally(status);
          context.documentMs = performance.now() - context.sentAt!;
          context.documentStatus = status;
          samples.document.push(context.documentMs);
        },
      },
      {
        method: "GET",
        setupRequest: (req, context: ViewContext) => {
          context.sentAt = performance.now();
          return { ...req, path: context.view!.model, headers: { ...req.headers, accept: "application/json" } };
        },
        onResponse: (status, _body, context: ViewContext) => {
          tally(status);
          const modelMs = performance.now() - context.sentAt!;
          samples.model.push(modelMs);
          // A document lost to a timeout leaves no time to pair with: the view is not counted.
          if (status === 200 && context.documentStatus === 200 && context.documentMs !== undefined) samples.view.push(context.documentMs + modelMs);
        },
      },
    ],
  });
  return { ...samples, errors: result.errors, timeouts: result.timeouts, seconds: (performance.now() - t0) / 1000 };
}

/** A small seeded generator (mulberry32): the agents' rhythm is the same in every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface PacedRun extends Samples {
  readonly seconds: number;
  readonly polls: number[];
  readonly pollStatuses: Map<number, number>;
  readonly pollSeconds: number;
}

/**
 * The issue's scenario with our own timers: AGENTS agents, each a browser with its own kept-alive
 * connections, each opening a view (document, then model) on average every AGENT_PAUSE_S — pauses
 * drawn between half and one and a half of it, first views spread over the first pause, so views
 * arrive independently as people's do, neither in step nor as a metronome. Each agent also has an
 * order page open whose live refresh polls the order's version every POLL_S, from POLL_S before the
 * views start until they end, so the views are measured against the steady poll load. Open loop: an
 * agent whose view is late starts its next one at once, it does not skip it.
 */
async function paced(
  baseUrl: string,
  cookie: string,
  views: readonly ViewPaths[],
  pollPaths: readonly string[],
  seconds: number,
): Promise<PacedRun> {
  const rand = random(25);
  const browsers: http.Agent[] = Array.from({ length: AGENTS }, () => agent(BROWSER_SOCKETS));
  const samples = noSamples();
  const polls: number[] = [];
  const pollStatuses = new Map<number, number>();
  const tally = (statuses: Map<number, number>, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const get = async (path: string, browser: http.Agent, accept: string, statuses: Map<number, number>) => {
    try {
      const answer = await request(`${baseUrl}${path}`, { agent: browser, headers: { cookie, accept }, timeoutMs: 30_000 });
      tally(statuses, answer.status);
      return answer;
    } catch {
      tally(statuses, 0);
      return null;
    }
  };

  let polling = true;
  const pollStart = performance.now();
  const pollers = browsers.map(async (browser, i) => {
    const path = pollPaths[i % pollPaths.length]!;
    // Spread over one interval: 50 pages opened at different moments do not poll in step.
    let due = pollStart + (i * POLL_S * 1000) / AGENTS;
    while (polling) {
      await sleep(Math.max(0, due - performance.now()));
      if (!polling) break;
      const answer = await get(path, browser, "application/json", pollStatuses);
      if (answer) polls.push(answer.ms);
      due += POLL_S * 1000;
    }
  });
  await sleep(POLL_S * 1000);

  let next = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const pause = () => AGENT_PAUSE_S * 1000 * (0.5 + rand());
  await Promise.all(
    browsers.map(async (browser) => {
      let due = t0 + rand() * AGENT_PAUSE_S * 1000;
      while (due < end) {
        await sleep(Math.max(0, due - performance.now()));
        const view = views[next++ % views.length]!;
        const document = await get(view.document, browser, "text/html", samples.statuses);
        if (document) samples.document.push(document.ms);
        // A full load reads the frame's model too (who is signed in, the saved views); the browser
        // asks for it beside the page's model, and it is counted into the view here as if after it.
        const frame = await get(FRAME_MODEL, browser, "application/json", samples.statuses);
        const model = await get(view.model, browser, "application/json", samples.statuses);
        if (model) samples.model.push(model.ms);
        if (document?.status === 200 && frame?.status === 200 && model?.status === 200) samples.view.push(document.ms + frame.ms + model.ms);
        due += pause();
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  polling = false;
  // Up to the stop, not to the last poller's wake-up: its final sleep would dilute the poll rate.
  const pollSeconds = (performance.now() - pollStart) / 1000;
  await Promise.all(pollers);
  browsers.forEach((b) => b.destroy());
  return { ...samples, seconds: elapsed, polls, pollStatuses, pollSeconds };
}

const percentiles = (samples: readonly number[]) => {
  const s = summarize(samples);
  return `p95 ${ms(s.p95)} (p50 ${ms(s.p50)}, p99 ${ms(s.p99)})`;
};

export const consoleLoadBench: Bench = {
  name: "console-load",
  title: "4. Console under load: order page and orders list views (document + frame + read model), 50 agents with live polls",
  async run({ args, log }) {
    const orders = args.quick ? 20_000 : 100_000;
    const seconds = args.quick ? 10 : 20;
    // Paced views come at 10/s: twice as long gives a p99 of a few hundred views, not of a hundred.
    const pacedSeconds = 2 * seconds;
    return withFreshDatabase("console", async (db) => {
      const pool = getPool();
      log(`seeding ${count(orders)} orders`);
      const seeded = await seedConsoleData(pool, orders);
      const { rows: sample } = await pool.query<{ tenant: string; order_no: string }>(
        `SELECT tenant_id AS tenant, order_no FROM orders TABLESAMPLE BERNOULLI (1) REPEATABLE (7) LIMIT 500`,
      );
      // The paths the browser builds (components/orders/order-page-view.tsx, live-order.tsx).
      const orderPath = (o: { tenant: string; order_no: string }) => `/orders/${encodeURIComponent(o.tenant)}/${encodeURIComponent(o.order_no)}`;
      const orderViews = sample.map((o) => ({ document: orderPath(o), model: `/api/console${orderPath(o)}/page` }));
      const pollPaths = sample.slice(-AGENTS).map((o) => `/api/console${orderPath(o)}`);
      // The list hands its own query string over whole (components/orders/orders-list-view.tsx): none on the first page.
      const listViews = [{ document: "/orders", model: `/api/console/orders?${new URLSearchParams({ query: "" })}` }];

      const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "console-load", log });
      try {
        const cookie = await signIn(server.url, EMAIL, PASSWORD);
        // Every request of a view answers signed in, with data (a redirect to /sign-in or a 401
        // would be fast and meaningless).
        const first = sample[0]!;
        for (const path of [orderViews[0]!.document, orderViews[0]!.model, listViews[0]!.document, listViews[0]!.model, pollPaths[0]!, FRAME_MODEL]) {
          const answer = await request(`${server.url}${path}`, { headers: { cookie } });
          if (answer.status !== 200) throw new Error(`GET ${path} signed in answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          if (path === orderViews[0]!.model && !answer.body.includes(first.order_no)) throw new Error(`the order page's model does not show ${first.order_no}`);
        }

        const targets = [
          { key: "order page", views: orderViews, what: `\`/orders/{tenant}/{orderNo}\` then \`/api/console/orders/{tenant}/{orderNo}/page\`, rotating over ${orderViews.length} random orders` },
          { key: "orders list", views: listViews, what: "`/orders` then `/api/console/orders?query=` (first page, no filter: newest first, with the total)" },
        ];
        const metrics: Metric[] = [];
        const notes: string[] = [];
        // Each web process's resident memory, sampled every second through the runs below.
        let peakRss = 0;
        let processes = 0;
        const sampler = setInterval(() => {
          const sizes = server.webProcessRss();
          processes = Math.max(processes, sizes.length);
          peakRss = Math.max(peakRss, ...sizes);
        }, 1000);
        for (const target of targets) {
          log(`${target.key}: warm-up`);
          await load(server.url, cookie, target.views, 10, 5);
          // One connection: a view's own time, with no queue in front of it.
          const alone = await load(server.url, cookie, target.views, 1, 5);
          // Unpaced: as many views as 50 connections get answered, the console's ceiling on this machine.
          const run = await load(server.url, cookie, target.views, CONNECTIONS, seconds);
          const viewRate = run.view.length / run.seconds;
          log(`${target.key}: unpaced view ${percentiles(run.view)}, ${perSecond(viewRate)}`);
          // The issue's scenario, which the target is about.
          log(`${target.key}: ${AGENTS} agents, live polls running, ${pacedSeconds} s`);
          const p = await paced(server.url, cookie, target.views, pollPaths, pacedSeconds);
          const pacedBad = failed(p);
          const pollBad = failed({ statuses: p.pollStatuses });
          const pv = summarize(p.view);
          log(`${target.key}: paced view ${percentiles(p.view)} (${p.view.length} views, ${pacedBad} requests not 200); poll ${percentiles(p.polls)}`);

          const scenario = `${AGENTS} agents, a view every ${AGENT_PAUSE_S} s each, ${AGENTS} live polls every ${POLL_S} s`;
          metrics.push(
            {
              name: `${target.key}: view (document + frame + model), ${scenario}`,
              value: `${percentiles(p.view)}; ${perSecond(p.view.length / p.seconds)} views`,
              target: `< ${TARGET_P95_MS} ms`,
              met: pv.p95 < TARGET_P95_MS && pacedBad === 0 && pollBad === 0,
            },
            { name: `${target.key}: document, same run`, value: percentiles(p.document) },
            { name: `${target.key}: model read, same run`, value: percentiles(p.model) },
            { name: `${target.key}: live poll (order version), same run`, value: `${percentiles(p.polls)}; ${(p.polls.length / p.pollSeconds).toFixed(1)}/s` },
            {
              name: `${target.key}: ${CONNECTIONS} connections unpaced (ceiling), view`,
              value: `${percentiles(run.view)}; ${perSecond(viewRate)} views; document p95 ${ms(summarize(run.document).p95)}, model p95 ${ms(summarize(run.model).p95)}`,
            },
            {
              name: `${target.key}: one connection (no queue), view`,
              value: `p50 ${ms(summarize(alone.view).p50)}, p95 ${ms(summarize(alone.view).p95)}; document p50 ${ms(summarize(alone.document).p50)}, model p50 ${ms(summarize(alone.model).p50)}; ${perSecond(alone.view.length / alone.seconds)} views`,
            },
          );
          const unpacedBad = failed(run);
          notes.push(
            `${target.key}: ${target.what}. Paced: ${count(p.view.length)} views in ${p.seconds.toFixed(0)} s, ${count(p.polls.length)} polls${pacedBad + pollBad > 0 ? `, **${count(pacedBad)} view requests and ${count(pollBad)} polls not 200** (${JSON.stringify([...p.statuses])}, polls ${JSON.stringify([...p.pollStatuses])})` : ", every answer 200"}. ` +
              `Unpaced: ${count(run.view.length)} views in ${seconds} s${unpacedBad > 0 ? `, **${count(unpacedBad)} requests not 200, errors or timeouts** (${JSON.stringify([...run.statuses])})` : ", every answer 200"}; ` +
              `Little's law: ${CONNECTIONS} connections each waiting for its view at ${perSecond(viewRate)} make a mean view of ${ms((CONNECTIONS / viewRate) * 1000)}.`,
          );
        }
        clearInterval(sampler);
        metrics.push({
          name: `memory per web process through these runs (peak RSS of ${processes})`,
          value: `${peakRss.toFixed(0)} MiB`,
          target: `< ${MAX_RSS_MB} MB`,
          met: processes > 0 && peakRss < MAX_RSS_MB,
        });
        return {
          metrics,
          notes: [
            `Fresh database with ${count(seeded.rows.orders)} orders and ${count(seeded.rows.order_transitions)} transitions (seedDemo, dense), the demo staff; signed in as ${EMAIL} (both products) through next-auth's credentials callback.`,
            `A view is the document, then the page's read model, on the same connection; its time is the answers' times added (the browser's parsing and script between them is not the server's). In the paced run a view also reads the frame's model (\`${FRAME_MODEL}\`) between the two, added into the view's time; unpaced and one-connection runs leave it out.`,
            `Paced (the target): ${AGENTS} agents with ${BROWSER_SOCKETS} kept-alive connections each, pauses between views drawn from ${AGENT_PAUSE_S / 2}–${(AGENT_PAUSE_S * 3) / 2} s (seeded), for ${pacedSeconds} s; each agent's open order page polls \`/api/console/orders/{tenant}/{orderNo}\` every ${POLL_S} s (${AGENTS} pages, ${(AGENTS / POLL_S).toFixed(1)}/s), from ${POLL_S} s before the views start. The poll's version never moves here, so no poll triggers a model read.`,
            `Unpaced and one connection: autocannon, each connection a document-then-model sequence, for ${seconds} s and 5 s after a 5 s warm-up at 10 connections; no polls.`,
            ...notes,
            "The load generator runs on the same 2 cores as the server and PostgreSQL: the rates are what this machine does, not a server's capacity.",
          ],
        };
      } finally {
        await server.stop();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(consoleLoadBench);

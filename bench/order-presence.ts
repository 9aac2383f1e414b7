// 9. Presence on an order (issue 26): what 50 open, idle order pages cost the server with presence
// on — each page's one poll every 3 s is a POST that renews its row in order_presence and answers
// the version, the changes and who else is here (lib/presence/order-presence.ts) — against the same
// 50 pages polling as before presence (issue 25's GET of the order's version: one prepared index
// lookup). CPU is read from /proc, as console-browser does: the web processes of `npm start`, and the
// PostgreSQL backends serving the console's connections, apart.
//
// An idle order page makes no request but its poll (console-browser counts a view's requests), so
// the pages here are their polls, sent as the page sends them (the session cookie, the page's tab
// id, JSON) on their own timers, each at a random phase: 50 browser tabs would measure the browser
// on the same 2 cores rather than the server.
import { randomUUID } from "node:crypto";
import { getPool } from "@/lib/db/pool";
import { DEMO_PASSWORD } from "@/lib/seed/staff";
import { seedConsoleData } from "./lib/console-data";
import { withFreshDatabase } from "./lib/db";
import { agent, request, signIn } from "./lib/http";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { pidsCpu, startConsole, webMs } from "./lib/server";
import { count, ms, percentile, sleep } from "./lib/stats";
import { POLL_SECONDS, PRESENCE_TTL_SECONDS } from "@/lib/presence/timing";

const PORT = Number(process.env.BENCH_PORT ?? 3760);
const TENANT = "fangzhou";
const PAGES = 50;
/** Two pages on each order, by two different people: every page has a colleague to show. */
const ORDERS = PAGES / 2;
const STAFF = ["agent@example.com", "ops@example.com", "manager@example.com"] as const;
const POLL_MS = POLL_SECONDS * 1000;
const ROUNDS = 2;
/** Presence may cost at most this many times the poll it replaced (CPU of the web processes). */
const TARGET_RATIO = 2;

type Mode = "off" | "on";

interface Page {
  readonly cookie: string;
  readonly orderNo: string;
  readonly version: number;
  readonly tab: string;
  /** The tab's request number, counted as the page counts it. */
  seq: number;
}

export const orderPresenceBench: Bench = {
  name: "order-presence",
  title: "9. Presence: server CPU of 50 open, idle order pages with presence on, against the same pages polling the version alone",
  async run({ args, log }) {
    const seconds = args.quick ? 20 : 60;
    return withFreshDatabase("order_presence", async (db) => {
      const pool = getPool();
      log(`seeding ${count(args.quick ? 5_000 : 20_000)} orders`);
      await seedConsoleData(pool, args.quick ? 5_000 : 20_000);
      const { rows: orders } = await pool.query<{ order_no: string; version: number }>(
        `SELECT order_no, version FROM orders WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2`,
        [TENANT, ORDERS],
      );
      if (orders.length < ORDERS) throw new Error(`only ${orders.length} orders`);

      const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "order-presence", log });
      try {
        const cookies = await Promise.all(STAFF.map((email) => signIn(server.url, email, DEMO_PASSWORD)));
        const pages: Page[] = Array.from({ length: PAGES }, (_, i) => ({
          cookie: cookies[i % STAFF.length]!,
          orderNo: orders[i % ORDERS]!.order_no,
          version: orders[i % ORDERS]!.version,
          tab: randomUUID(),
          seq: 0,
        }));
        const http = agent(PAGES);
        const latencies: Record<Mode, number[]> = { off: [], on: [] };
        const poll = async (page: Page, mode: Mode) => {
          const path = `${server.url}/api/console/orders/${TENANT}/${encodeURIComponent(page.orderNo)}`;
          const answer =
            mode === "on"
              ? await request(`${path}/presence`, {
                  method: "POST",
                  agent: http,
                  headers: { cookie: page.cookie, "content-type": "application/json", accept: "application/json", "sec-fetch-site": "same-origin" },
                  body: JSON.stringify({ tab: page.tab, since: page.version, seq: ++page.seq }),
                })
              : await request(path, { agent: http, headers: { cookie: page.cookie, accept: "application/json" } });
          if (answer.status !== 200) throw new Error(`${mode} poll of ${page.orderNo} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          latencies[mode].push(answer.ms);
          return answer.body;
        };

        /** The PostgreSQL backends of the console's database: the web processes' and the worker's connections. */
        const backends = async () =>
          (await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
        /** Web and database CPU while the pages poll in `mode` (or none: no page open) for `seconds`. */
        const window = async (mode: Mode | "none") => {
          let polls = 0;
          const stop = performance.now() + seconds * 1000;
          const webBefore = server.processCpu();
          const dbBefore = pidsCpu(await backends());
          const t0 = performance.now();
          if (mode !== "none") {
            await Promise.all(
              pages.map(async (page) => {
                await sleep(Math.random() * POLL_MS);
                while (performance.now() < stop) {
                  const next = performance.now() + POLL_MS;
                  await poll(page, mode);
                  polls++;
                  await sleep(Math.max(0, next - performance.now()));
                }
              }),
            );
          } else await sleep(seconds * 1000);
          const elapsed = (performance.now() - t0) / 1000;
          const webAfter = server.processCpu();
          const dbAfter = pidsCpu(await backends());
          // A backend that started during the window counts from zero; one that ended is lost (the pool keeps its connections while pages poll).
          const dbMs = [...dbAfter].reduce((sum, [pid, t]) => sum + t - (dbBefore.get(pid) ?? 0), 0);
          return { web: webMs(webBefore, webAfter) / elapsed, db: dbMs / elapsed, polls: polls / elapsed };
        };

        log("warm-up, and a check that the pages see each other");
        for (const page of pages) await poll(page, "off");
        for (let i = 0; i < 2; i++) for (const page of pages) await poll(page, "on");
        const seen = JSON.parse(await poll(pages[0]!, "on")) as { json: { present: { name: string }[] } };
        if (seen.json.present.length !== 1) throw new Error(`a page sees ${JSON.stringify(seen.json.present)}, not its one colleague`);
        latencies.off.splice(0);
        latencies.on.splice(0);
        await sleep(5_000);

        log(`${ROUNDS} rounds of: no page, ${PAGES} pages polling the version (presence off), ${PAGES} pages with presence on; ${seconds} s each`);
        const sums = { none: { web: 0, db: 0 }, off: { web: 0, db: 0, polls: 0 }, on: { web: 0, db: 0, polls: 0 } };
        const rounds: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const none = await window("none");
          const off = await window("off");
          const on = await window("on");
          sums.none.web += none.web / ROUNDS;
          sums.none.db += none.db / ROUNDS;
          for (const [mode, at] of [["off", off], ["on", on]] as const) {
            sums[mode].web += at.web / ROUNDS;
            sums[mode].db += at.db / ROUNDS;
            sums[mode].polls += at.polls / ROUNDS;
          }
          rounds.push(`round ${round + 1}: web ${none.web.toFixed(1)} / ${off.web.toFixed(1)} / ${on.web.toFixed(1)} ms/s, database ${none.db.toFixed(1)} / ${off.db.toFixed(1)} / ${on.db.toFixed(1)} ms/s (none / off / on)`);
          log(rounds.at(-1)!);
        }
        http.destroy();
        const { rows: left } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM order_presence WHERE expires_at > now() AND left_at IS NULL`);

        const above = (mode: "off" | "on", side: "web" | "db") => sums[mode][side] - sums.none[side];
        const ratio = above("on", "web") / above("off", "web");
        const dbRatio = above("on", "db") / above("off", "db");
        const perPoll = (mode: "off" | "on", side: "web" | "db") => above(mode, side) / sums[mode].polls;
        const p = (mode: Mode, q: number) => ms(percentile(latencies[mode], q));
        const metrics: Metric[] = [
          {
            name: `${PAGES} idle order pages, presence on: web CPU`,
            value: `${sums.on.web.toFixed(1)} ms/s (${above("on", "web").toFixed(1)} above no page open; ${ms(perPoll("on", "web"))} per poll)`,
          },
          {
            name: `${PAGES} idle order pages, presence off (the version poll): web CPU`,
            value: `${sums.off.web.toFixed(1)} ms/s (${above("off", "web").toFixed(1)} above no page open; ${ms(perPoll("off", "web"))} per poll)`,
          },
          { name: "presence on / off: web CPU above no page open", value: `${ratio.toFixed(2)}×`, target: `≤ ${TARGET_RATIO}×`, met: ratio <= TARGET_RATIO },
          {
            name: "PostgreSQL backends' CPU, on / off (above no page open)",
            value: `${above("on", "db").toFixed(1)} / ${above("off", "db").toFixed(1)} ms/s (${dbRatio.toFixed(2)}×; ${ms(perPoll("on", "db"))} / ${ms(perPoll("off", "db"))} per poll)`,
          },
          { name: "polls per second (all pages)", value: `on ${sums.on.polls.toFixed(1)}, off ${sums.off.polls.toFixed(1)} (${PAGES} pages every ${POLL_MS / 1000} s: ${(PAGES / (POLL_MS / 1000)).toFixed(1)})` },
          { name: "poll latency, on / off", value: `p50 ${p("on", 50)} / ${p("off", 50)}, p95 ${p("on", 95)} / ${p("off", 95)}` },
          { name: "context: web processes with no page open", value: `${sums.none.web.toFixed(1)} ms/s; database ${sums.none.db.toFixed(1)} ms/s` },
        ];
        return {
          metrics,
          notes: [
            `Fresh database (seedDemo, dense history), the demo staff, external delivery (idle worker); \`npm start\` with ${server.processCpu().web.size} web processes.`,
            `${PAGES} pages on ${ORDERS} ${TENANT} orders, two on each, signed in as ${STAFF.join(", ")} in turn (so each page has a colleague on its order: a non-empty "who else"). Each page polls every ${POLL_MS / 1000} s from a random phase, over one keep-alive agent of ${PAGES} sockets, as the page does: presence on = \`POST /api/console/orders/{tenant}/{orderNo}/presence\` with its tab id, version and request number (renews its row, answers version, changes and who else); off = \`GET /api/console/orders/{tenant}/{orderNo}\` (issue 25's version probe).`,
            `CPU is utime + stime from /proc: the web processes of \`npm start\`'s group (worker apart), and the PostgreSQL backends connected to the bench database (pg_stat_activity), summed before and after each ${seconds} s window. Each round measures no page, then off, then on; the figures are the rounds' mean. Per round: ${rounds.join("; ")}.`,
            `Rows in order_presence still live at the end: ${left[0]!.n} (of ${PAGES} tabs; they expire ${PRESENCE_TTL_SECONDS} s after their last poll).`,
          ],
        };
      } finally {
        await server.stop();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(orderPresenceBench);

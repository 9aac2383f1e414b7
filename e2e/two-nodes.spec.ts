// Two app nodes behind one load balancer (e2e/server.ts: HAProxy, round robin, no stickiness), as a
// deployment runs them: every page, server action and API call may land on either node, and either
// may die. What one node knows the other must know too — a session, a server action's key, a
// payment, an API key's failure count — so it lives in the database, never in a process.
//
// The balancer names the node that answered each request (X-Served-By), so each test shows both
// nodes took part. This file runs last (the files run in name order): its last test kills a node and
// waits until the harness has it serving again.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import type { Page, Request, Response } from "@playwright/test";
import pg from "pg";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { channelKey } from "./channel";
import { E2E_DATABASE_URL, E2E_NODES } from "./env";
import { call, countBy, pay, tally, type Answer } from "./fresh-call";
import { expect, signIn, test } from "./fixtures";
import { killNode, waitUntilServing, type NodeFacts, type NodeName } from "./nodes";

const TENANT = "twonodes";
const AMOUNT = 6_00;
const BOTH = E2E_NODES.map((n) => n.name);
/** API_KEY_FAILURES.perWindow (lib/api/key-throttle.ts, server-only, so not importable here). */
const KEY_FAILURES_PER_WINDOW = 20;
/** What a client retries with the same bizKey, as the API's contract tells integrators to. */
const RETRYABLE = new Set([502, 503, 504]);

// int8 (ids, amounts) as numbers, as the app's own pool reads them (lib/db/pool.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

let pool: pg.Pool;
let key: string;

test.beforeAll(async () => {
  // UTC: the audit chain's hashes cover timestamps as rendered in UTC (chainBreaks below).
  pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 10, options: "-c timezone=UTC" });
  await ensureTenant(pool, tenantSpec(TENANT));
  key = await channelKey(pool, TENANT, "alipay");
});

test.afterAll(async () => {
  // Whatever happened above, the files after this one (none today) and the next run find both nodes.
  for (const name of BOTH) await waitUntilServing(name);
  await pool.end();
});

/** The nodes that answered `answers`, sorted; a balancer's own error names none. */
function nodesOf(answers: readonly { readonly servedBy: string | null }[]): string[] {
  return [...new Set(answers.flatMap((a) => (a.servedBy ? [a.servedBy] : [])))].sort();
}

interface Seen {
  readonly url: string;
  readonly status: number;
  readonly servedBy: string | null;
}

/** Every document, client navigation (RSC) and server action the page sends, with the node that answered it. */
function watchNodes(page: Page): { documents: Seen[]; navigations: Seen[]; actions: Seen[] } {
  const seen = { documents: [] as Seen[], navigations: [] as Seen[], actions: [] as Seen[] };
  page.on("response", (response: Response) => {
    const request = response.request();
    const entry = { url: request.url(), status: response.status(), servedBy: response.headers()["x-served-by"] ?? null };
    if (request.resourceType() === "document") seen.documents.push(entry);
    else if (isServerAction(request)) seen.actions.push(entry);
    else if (request.headers()["rsc"] === "1" && !request.headers()["next-router-prefetch"]) seen.navigations.push(entry);
  });
  return seen;
}

function isServerAction(request: Request): boolean {
  return request.method() === "POST" && request.headers()["next-action"] !== undefined;
}

test("two nodes: a staff member's pages, navigations and server actions are answered by both nodes, and every action applies", async ({ page }) => {
  test.setTimeout(180_000);
  const seen = watchNodes(page);
  await signIn(page, "ops@example.com");

  for (const path of ["/orders", "/queues"]) {
    expect((await page.goto(path))?.status(), path).toBe(200);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  }

  // Client-side navigations: the router fetches each page's payload from whichever node the balancer
  // picks. Nodes built apart must agree on the build, or the router falls back to loading the whole
  // document (Next's answer to a deployment's version skew): no document may be loaded here.
  const documentsBefore = seen.documents.length;
  const main = page.getByRole("navigation", { name: "Main" });
  // Round after round until both nodes have answered a navigation: a navigation is its payload and
  // the page's data reads, and a number of requests that keeps the balancer's turn in step would land
  // every payload on one node; one or two requests more by turns shift it.
  const links = [["Orders", "/orders"], ["Refund reviews", "/refund-reviews"], ["Dashboard", "/dashboard"], ["Overview", "/"], ["Queues", "/queues"]] as const;
  for (let round = 0; round === 0 || (round < 4 && nodesOf(seen.navigations).length < BOTH.length); round++) {
    for (const [link, path] of links) {
      await main.getByRole("link", { name: link, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === path);
      await expect(page.getByTestId("signed-in-as")).toBeVisible();
      await page.waitForLoadState("networkidle");
      if (nodesOf(seen.navigations).length < BOTH.length) for (let i = 0; i <= round % 2; i++) await call("GET", "/sign-in");
    }
  }
  expect(seen.documents.slice(documentsBefore)).toEqual([]);

  // Internal notes, each a server action posted from an order page loaded whole, until both nodes
  // have answered documents, navigations and actions (and at least three notes are in). Any client's
  // next request goes to the other node; when the page's own requests kept landing one kind on one
  // node, a request more shifts the turn.
  const { rows: orders } = await pool.query<{ id: number; tenant_id: string; order_no: string }>(
    `SELECT id, tenant_id, order_no FROM orders WHERE state = 'delivered' AND tenant_id IN ('xiaoxiao', 'fangzhou') ORDER BY id DESC LIMIT 12`,
  );
  const everyKindOnBoth = () => [seen.documents, seen.navigations, seen.actions].every((kind) => nodesOf(kind).length === BOTH.length);
  const run = randomUUID().slice(0, 8);
  const notes: { orderId: number; body: string }[] = [];
  for (const order of orders) {
    if (notes.length >= 3 && everyKindOnBoth()) break;
    expect((await page.goto(`/orders/${order.tenant_id}/${order.order_no}`))?.status()).toBe(200);
    const body = `two nodes ${run}: note ${notes.length + 1}`;
    await page.getByLabel("Add an internal note").fill(body);
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByTestId("note-composer").getByRole("status")).toContainText("added");
    notes.push({ orderId: order.id, body });
    // One or two requests by turns: how many requests the page itself makes between two notes (its
    // data reads, its live poll) varies, and a fixed shift could keep the actions on one node.
    if (!everyKindOnBoth()) for (let i = 0; i <= notes.length % 2; i++) await call("GET", "/sign-in");
  }

  expect(nodesOf(seen.documents)).toEqual(BOTH);
  expect(nodesOf(seen.navigations)).toEqual(BOTH);
  expect(nodesOf(seen.actions)).toEqual(BOTH);
  expect(seen.actions.filter((a) => a.status !== 200)).toEqual([]);
  test.info().annotations.push({
    type: "served",
    description: `documents ${JSON.stringify(countBy(seen.documents, (s) => s.servedBy ?? "none"))}, navigations ${JSON.stringify(countBy(seen.navigations, (s) => s.servedBy ?? "none"))}, actions ${JSON.stringify(countBy(seen.actions, (s) => s.servedBy ?? "none"))}`,
  });

  // Every note is in, once, by its author, whichever node took it.
  const { rows: written } = await pool.query(`SELECT order_id AS "orderId", body FROM order_notes WHERE author = 'staff:ops@example.com' AND body LIKE $1 ORDER BY id`, [
    `two nodes ${run}: %`,
  ]);
  expect(written).toEqual(notes);
});

test("two nodes: concurrent pay callbacks with duplicates, spread over both nodes, apply once per order", async () => {
  const N = 40;
  const COPIES = 3;
  const orders = await Promise.all(Array.from({ length: N }, () => createOrder(pool, { tenantId: TENANT, amount: AMOUNT })));
  const ids = orders.map((o) => o.id);

  // Every copy on its own connection, the copies of one order one after the other: round robin sends
  // them to alternate nodes, which race for the same order.
  const answers = await Promise.all(
    orders.flatMap((order) => Array.from({ length: COPIES }, async () => ({ orderId: order.id, ...(await pay(key, order.orderNo, `alipay-${order.orderNo}`, AMOUNT)) }))),
  );

  expect(tally(answers)).toEqual({ "200 applied": N, "200 duplicate": N * (COPIES - 1) });
  const appliedPerOrder = countBy(
    answers.filter((a) => a.result === "applied"),
    (a) => String(a.orderId),
  );
  expect(Object.values(appliedPerOrder).filter((n) => n === 1)).toHaveLength(N);
  expect(nodesOf(answers)).toEqual(BOTH);

  const { rows } = await pool.query(
    `SELECT count(*) FILTER (WHERE o.state = 'paid')::int AS paid,
            count(*) FILTER (WHERE (SELECT count(*) FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'pay') = 1)::int AS "onePay",
            (SELECT count(*) FROM order_transitions t WHERE t.order_id = ANY($1))::int AS transitions,
            count(*) FILTER (WHERE (SELECT count(*) FROM outbox_messages m WHERE m.order_id = o.id) = 1)::int AS "oneMessage",
            (SELECT count(*) FROM outbox_messages m WHERE m.order_id = ANY($1))::int AS messages
     FROM orders o WHERE o.id = ANY($1)`,
    [ids],
  );
  expect(rows[0]).toEqual({ paid: N, onePay: N, transitions: N, oneMessage: N, messages: N });
});

test("two nodes: the API-key failure budget of one client address is one budget for both nodes", async () => {
  const N = 60;
  // A client behind the balancer: loopback is a trusted proxy, so the address it names is believed.
  const address = `203.0.113.${100 + randomInt(150)}`;
  const badKey = `oo_${randomBytes(6).toString("hex")}_${randomBytes(32).toString("base64url")}`;

  const answers = await Promise.all(
    Array.from({ length: N }, () =>
      call("POST", `/api/v1/orders/E2E-NONE/events`, {
        headers: { authorization: `Bearer ${badKey}`, "x-forwarded-for": address },
        body: { event: "pay", bizKey: "nothing", amount: AMOUNT },
      }),
    ),
  );

  expect(countBy(answers, (a) => String(a.status))).toEqual({ "401": KEY_FAILURES_PER_WINDOW, "429": N - KEY_FAILURES_PER_WINDOW });
  expect(nodesOf(answers)).toEqual(BOTH);
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'apikey.auth-failed' AND target = $1`, [`address:${address}`]);
  expect(rows[0].n).toBe(1);
});

interface PayRecord {
  readonly orderId: number;
  readonly sentAt: number;
  /** What failed before the final answer: a status the client retries, or "network". */
  readonly failed: readonly string[];
  readonly final: Answer | null;
}

interface StaffRecord {
  readonly orderId: number;
  readonly startedAt: number;
  readonly failed: readonly string[];
  /** "applied": the console said so; "applied-unanswered": an attempt that failed had applied, the reload showed. */
  readonly outcome: "applied" | "applied-unanswered" | "gave-up";
}

test("two nodes: a node killed while pays and staff actions run: the other takes over, retries apply once, and the dead node comes back", async ({ page }) => {
  test.setTimeout(240_000);
  const victim: NodeName = "node-a";
  const survivor = BOTH.find((n) => n !== victim)!;
  const deadline = Date.now() + 120_000;
  const run = randomUUID().slice(0, 8);
  const reason = `two nodes ${run}: delivery started by hand`;

  // Paid orders of a tenant the staff member works on, for the staff's actions (begin delivery).
  const staffKey = await channelKey(pool, "xiaoxiao", "alipay");
  const staffOrders = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const order = await createOrder(pool, { tenantId: "xiaoxiao", amount: AMOUNT });
      const paid = await pay(staffKey, order.orderNo, `alipay-${order.orderNo}`, AMOUNT);
      expect(paid.result).toBe("applied");
      return order;
    }),
  );
  await signIn(page, "ops@example.com");

  // Set by whichever driver reaches the moment first (an object: both closures write it).
  const kill: { node: (NodeFacts & { at: number }) | null } = { node: null };
  const pays: PayRecord[] = [];
  const staff: StaffRecord[] = [];
  let staffDone = false;
  // The node dies once both kinds of work are under way, and both go on after it.
  const maybeKill = async () => {
    if (kill.node !== null || pays.length < 30 || staff.length < 2) return;
    kill.node = { ...(await killNode(victim)), at: Date.now() };
  };

  /** A channel's pay, retried with the same bizKey after a failure, as the API's contract says. */
  async function payUntilAnswered(orderId: number, orderNo: string): Promise<PayRecord> {
    const sentAt = Date.now();
    const failed: string[] = [];
    for (let attempt = 1; attempt <= 8 && Date.now() < deadline; attempt++) {
      const answer = await pay(key, orderNo, `alipay-${orderNo}`, AMOUNT).catch(() => null);
      if (answer && !RETRYABLE.has(answer.status)) return { orderId, sentAt, failed, final: answer };
      failed.push(answer ? String(answer.status) : "network");
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
    return { orderId, sentAt, failed, final: null };
  }

  // Channels paying, three at a time, each order once (with retries), at a pace the two cores and the
  // browser can share, until the kill is long past and the staff member has finished.
  const apiOrders: number[] = [];
  const channels = Array.from({ length: 3 }, async () => {
    while (Date.now() < deadline && !(kill.node !== null && staffDone && pays.filter((p) => p.sentAt > kill.node!.at).length >= 60)) {
      const order = await createOrder(pool, { tenantId: TENANT, amount: AMOUNT });
      apiOrders.push(order.id);
      pays.push(await payUntilAnswered(order.id, order.orderNo));
      await maybeKill();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  // The staff member begins delivery on each order; when an attempt fails she reloads the order and,
  // unless the order has moved on (the failed attempt had applied), tries again.
  const console_ = (async () => {
    for (const order of staffOrders) {
      staff.push(await beginDelivery(page, order, reason, deadline));
      await maybeKill();
      // Half the actions before the kill, half after it.
      if (staff.length === staffOrders.length / 2) await expect.poll(() => kill.node !== null, { timeout: 30_000 }).toBe(true);
    }
    staffDone = true;
  })();

  await Promise.all([...channels, console_]);
  const killed = kill.node;
  expect(killed, "the node was killed while the work ran").not.toBeNull();
  const killedAt = killed!.at;

  // Every pay was answered in the end: applied, or a duplicate of an attempt that applied unanswered.
  expect(pays.filter((p) => p.final === null)).toEqual([]);
  const outcomes = countBy(pays, (p) => `${p.final!.status} ${p.final!.result}${p.failed.length > 0 ? " after a failure" : ""}`);
  test.info().annotations.push({
    type: "failover",
    description: `pays: ${JSON.stringify(outcomes)}; failed attempts: ${JSON.stringify(countBy(pays.flatMap((p) => p.failed), (f) => f))}; staff: ${JSON.stringify(countBy(staff, (s) => `${s.outcome}${s.failed.length > 0 ? ` after ${s.failed.join(", ")}` : ""}`))}`,
  });
  expect(Object.keys(outcomes).filter((o) => !["200 applied", "200 applied after a failure", "200 duplicate after a failure"].includes(o))).toEqual([]);
  // The other node took the work while the victim was down: pays sent after the kill were answered
  // by the survivor before the victim answered again.
  const back = Math.min(...pays.filter((p) => p.sentAt > killedAt && p.final!.servedBy === victim).map((p) => p.sentAt));
  expect(pays.filter((p) => p.sentAt > killedAt && p.sentAt < back && p.final!.servedBy === survivor).length).toBeGreaterThan(0);

  // The database agrees: every order paid, by one pay transition and one outbox message.
  const { rows: paid } = await pool.query(
    `SELECT count(*)::int AS orders, count(*) FILTER (WHERE o.state = 'paid')::int AS paid,
            count(*) FILTER (WHERE (SELECT count(*) FROM order_transitions t WHERE t.order_id = o.id) = 1
                               AND (SELECT count(*) FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'pay') = 1)::int AS "onePay",
            count(*) FILTER (WHERE (SELECT count(*) FROM outbox_messages m WHERE m.order_id = o.id) = 1)::int AS "oneMessage"
     FROM orders o WHERE o.id = ANY($1)`,
    [apiOrders],
  );
  expect(paid[0]).toEqual({ orders: pays.length, paid: pays.length, onePay: pays.length, oneMessage: pays.length });

  // Every staff action answered as applied (or found applied) is in the ledger, once, as the staff
  // member's, with its reason.
  expect(staff.filter((s) => s.outcome === "gave-up")).toEqual([]);
  expect(staff.some((s) => s.startedAt > killedAt)).toBe(true);
  const { rows: deliveries } = await pool.query(
    `SELECT o.id AS "orderId", o.state, count(t.id)::int AS transitions, array_agg(DISTINCT t.actor) AS actors, array_agg(DISTINCT t.reason) AS reasons, array_agg(DISTINCT t.source) AS sources
     FROM orders o LEFT JOIN order_transitions t ON t.order_id = o.id AND t.event = 'begin-delivery'
     WHERE o.id = ANY($1) GROUP BY o.id ORDER BY o.id`,
    [staffOrders.map((o) => o.id)],
  );
  expect(deliveries).toEqual(
    staffOrders
      .map((o) => o.id)
      .sort((a, b) => a - b)
      .map((orderId) => ({ orderId, state: "delivering", transitions: 1, actors: ["staff:ops@example.com"], reasons: [reason], sources: ["console"] })),
  );
  // … and in the audit log: each order's chain of facts is whole, with no gap and no broken link,
  // though a node died in the middle of writing some of them.
  expect(await chainBreaks([...apiOrders, ...staffOrders.map((o) => o.id)])).toEqual([]);

  // The harness starts the dead node again, and the balancer sends it requests once it answers.
  const returned = await waitUntilServing(victim, { after: killed! });
  expect(returned.starts).toBe(killed!.starts + 1);
});

/**
 * One staff action through the console (begin delivery, with a reason), as a person does it: a
 * failure (the node that took it died) is followed by a reload, and a new attempt unless the order
 * has already moved on.
 */
async function beginDelivery(page: Page, order: { id: number; tenantId: string; orderNo: string }, reason: string, deadline: number): Promise<StaffRecord> {
  const startedAt = Date.now();
  const failed: string[] = [];
  const path = `/orders/${order.tenantId}/${order.orderNo}`;
  for (let attempt = 1; attempt <= 5 && Date.now() < deadline; attempt++) {
    if (!(await open(page, path, deadline))) {
      failed.push("page");
      continue;
    }
    // The page reads the order after it loads: its actions are there once the order's heading is.
    const shown = await page.getByRole("heading", { level: 1, name: order.orderNo }).waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    if (!shown) {
      failed.push("data");
      continue;
    }
    const begin = page.getByRole("button", { name: /Begin delivery/ });
    if ((await begin.count()) === 0) return { orderId: order.id, startedAt, failed, outcome: "applied-unanswered" };
    await begin.click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/Reason/).fill(reason);
    const answered = actionAnswer(page, path);
    await dialog.getByTestId("confirm-event").click();
    const status = await answered;
    if (status === 200) {
      await expect(page.getByTestId("event-outcome")).toContainText("Done: the order is now delivering");
      return { orderId: order.id, startedAt, failed, outcome: "applied" };
    }
    failed.push(status === 0 ? "network" : String(status));
  }
  return { orderId: order.id, startedAt, failed, outcome: "gave-up" };
}

/** Loads a page, again while the balancer answers that no node could (a person reloads). */
async function open(page: Page, path: string, deadline: number): Promise<boolean> {
  for (let attempt = 1; attempt <= 5 && Date.now() < deadline; attempt++) {
    const response = await page.goto(path).catch(() => null);
    if (response?.status() === 200) {
      await expect(page.getByTestId("signed-in-as")).toBeVisible();
      return true;
    }
  }
  return false;
}

/** The status of the answer to the next server action posted to `path`, or 0 if the request failed without one. */
function actionAnswer(page: Page, path: string): Promise<number> {
  const ours = (request: Request) => isServerAction(request) && new URL(request.url()).pathname === path;
  return Promise.race([
    page.waitForResponse((response) => ours(response.request()), { timeout: 60_000 }).then((response) => response.status()),
    page.waitForEvent("requestfailed", { predicate: ours, timeout: 60_000 }).then(() => 0),
  ]).catch(() => 0);
}

/**
 * The facts of these orders' audit chains (prisma/migrations/20261203150000_audit_facts_chain) that
 * are out of sequence, not linked to the fact before, or whose content no longer has their hash.
 */
async function chainBreaks(orderIds: readonly number[]): Promise<unknown[]> {
  const facts = ["order_transitions", "grants", "order_notes", "audit_events"]
    .map((log) => `SELECT '${log}' AS log, f.id, f.tenant_id, f.order_id, f.chain_seq, f.prev_hash, f.hash, to_jsonb(f) AS fact FROM ${log} f WHERE f.order_id = ANY($1)`)
    .join(" UNION ALL ");
  const { rows } = await pool.query(
    `WITH facts AS (${facts}),
     linked AS (SELECT *, row_number() OVER w AS position, lag(hash) OVER w AS before FROM facts WINDOW w AS (PARTITION BY tenant_id, order_id ORDER BY chain_seq))
     SELECT log, id, order_id AS "orderId", chain_seq AS seq FROM linked
     WHERE chain_seq IS DISTINCT FROM position OR prev_hash IS DISTINCT FROM before OR hash IS DISTINCT FROM audit_fact_hash(prev_hash, fact)`,
    [orderIds],
  );
  return rows;
}

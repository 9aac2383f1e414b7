import type { Browser, Page } from "@playwright/test";
import { placeOrder } from "./channel";
import { expect, signIn, test } from "./fixtures";

// Presence and the collision warning (issue 26, items 3 and 4), with two staff in two browser
// contexts (two sessions, as two people at two machines), through the balancer: each poll may land
// on either node, so what one sees of the other comes from the database, never a process.

/** Within a few seconds: the page polls every 3 s; two polls and a busy machine's slack. */
const SOON = { timeout: 12_000 };

// Two people, two sign-ins (each up to 20 s on a loaded machine: fixtures.ts), then their steps.
test.beforeEach(() => test.setTimeout(150_000));

async function staffPage(browser: Browser, email: string, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto(path);
  // The first order page a cold web process serves loads its routes first: as long as a sign-in may take.
  await expect(page.getByTestId("order-live")).toBeVisible({ timeout: 20_000 });
  return page;
}

/**
 * Makes the page's tab hidden, as switching to another tab does; shown again, the browser's own
 * visibility is back (a page that then goes away is hidden as it unloads, as in a real browser,
 * rather than stuck "visible" and polling on its way out).
 */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    if (hide) {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      Object.defineProperty(document, "hidden", { value: true, configurable: true });
    } else {
      delete (document as { visibilityState?: unknown }).visibilityState;
      delete (document as { hidden?: unknown }).hidden;
    }
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  }, hidden);
}

test("presence: two staff on one order see each other (name, role, since when), and see the other leave", async ({ browser, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 6_00 });
  const path = `/orders/${order.tenantId}/${order.orderNo}`;
  const rowsOf = async (email: string) =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM order_presence p JOIN staff_users s ON s.id = p.staff_id WHERE p.order_id = $1 AND s.email = $2 AND p.expires_at > now() AND p.left_at IS NULL`,
        [order.id, email],
      )
    ).rows[0]!.n;

  const agent = await staffPage(browser, "agent@example.com", path);
  await expect(agent.getByTestId("order-presence")).toHaveText("Nobody else has this order open", SOON);

  const ops = await staffPage(browser, "ops@example.com", path);
  await expect(agent.getByTestId("present-colleague")).toHaveText(/^Demo Ops \(ops\) since \d/, SOON);
  await expect(ops.getByTestId("present-colleague")).toHaveText(/^Demo Agent \(agent\) since \d/, SOON);
  // Only name, role and since: nothing else of the colleague reaches the other's page.
  await expect(agent.getByTestId("order-presence")).not.toContainText("ops@example.com");

  // Ops switches to another tab: that tab says it is leaving and stops polling.
  await setHidden(ops, true);
  await expect(agent.getByTestId("order-presence")).toHaveText("Nobody else has this order open", SOON);
  expect(await rowsOf("ops@example.com")).toBe(0);
  await setHidden(ops, false);
  await expect(agent.getByTestId("present-colleague")).toHaveText(/^Demo Ops \(ops\)/, SOON);

  // Ops leaves the order for another page: the page says it is leaving as it goes. A poll that was on
  // its way then (one starts as the tab is shown again, just above) may reach the other node after the
  // leave: it changes nothing, so the agent sees Ops go at the agent's next poll.
  await ops.goto("/orders");
  await expect(agent.getByTestId("order-presence")).toHaveText("Nobody else has this order open", SOON);
  expect(await rowsOf("ops@example.com")).toBe(0);
  expect(await rowsOf("agent@example.com")).toBe(1);

  // And the agent closes the tab: nothing is left behind.
  await agent.close({ runBeforeUnload: true });
  await expect.poll(() => rowsOf("agent@example.com"), SOON).toBe(0);
  await ops.context().close();
  await agent.context().close();
});

test("presence: the second one's open form says who moved the order and how, before submit; reloading the facts keeps what was typed", async ({ browser, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 30_00 });
  const path = `/orders/${order.tenantId}/${order.orderNo}`;

  const agent = await staffPage(browser, "agent@example.com", path);
  await agent.getByRole("button", { name: /Request refund/ }).click();
  const form = agent.getByRole("dialog");
  await form.getByLabel(/Reason/).fill("player was charged twice by the channel");
  await expect(form.getByTestId("order-moved")).toHaveCount(0);

  // Meanwhile a colleague, on another machine, moves the order on.
  const ops = await staffPage(browser, "ops@example.com", path);
  await ops.getByRole("button", { name: /Begin delivery/ }).click();
  await ops.getByRole("dialog").getByLabel(/Reason/).fill("starting delivery by hand");
  await ops.getByRole("dialog").getByTestId("confirm-event").click();
  await expect(ops.getByTestId("event-outcome")).toContainText("Done: the order is now delivering");

  // The agent has not pressed anything: the form says so by itself — who, what — while the page
  // holds the facts the form was opened on.
  const moved = form.getByTestId("order-moved");
  await expect(moved).toContainText("This order changed since you opened this form (version 1 → 2)", SOON);
  await expect(moved.getByTestId("order-moved-change")).toHaveCount(1);
  await expect(moved.getByTestId("order-moved-change")).toContainText("Demo Ops");
  await expect(moved.getByTestId("order-moved-change")).toContainText("begin-delivery");
  await expect(moved.getByTestId("order-moved-change")).toContainText("Paid → Delivering");
  await expect(agent.getByText("version 1", { exact: true })).toBeVisible();

  // Reloading the facts: the page shows the order as it is now, the form keeps the text, and the
  // warning goes.
  await moved.getByTestId("reload-facts").click();
  await expect(form.getByTestId("order-moved")).toHaveCount(0, SOON);
  await expect(form.getByRole("status")).toContainText("Reloaded: the order is now at version 2");
  await expect(agent.getByText("version 2", { exact: true })).toBeVisible();
  await expect(form.getByLabel(/Reason/)).toHaveValue("player was charged twice by the channel");

  await form.getByTestId("confirm-event").click();
  await expect(form).toHaveCount(0);
  await expect(agent.getByTestId("event-outcome")).toContainText("Done: the order is now refunding");
  const { rows: written } = await db.query(`SELECT from_state, actor, reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id]);
  expect(written).toEqual([{ from_state: "delivering", actor: "staff:agent@example.com", reason: "player was charged twice by the channel" }]);
  await ops.context().close();
  await agent.context().close();
});

test("presence: the note box says the order moved while a note was being written, and keeps the note", async ({ browser, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 6_00 });
  const path = `/orders/${order.tenantId}/${order.orderNo}`;
  const agent = await staffPage(browser, "agent@example.com", path);
  const composer = agent.getByTestId("note-composer");
  await composer.getByRole("textbox").fill("called the player about the delivery");

  const ops = await staffPage(browser, "ops@example.com", path);
  await ops.getByRole("button", { name: /Begin delivery/ }).click();
  await ops.getByRole("dialog").getByLabel(/Reason/).fill("starting delivery by hand");
  await ops.getByRole("dialog").getByTestId("confirm-event").click();
  await expect(ops.getByTestId("event-outcome")).toContainText("Done: the order is now delivering");

  await expect(composer.getByTestId("order-moved")).toContainText("Demo Ops", SOON);
  await expect(composer.getByRole("textbox")).toHaveValue("called the player about the delivery");
  await composer.getByTestId("reload-facts").click();
  await expect(composer.getByTestId("order-moved")).toHaveCount(0, SOON);
  await expect(composer.getByRole("textbox")).toHaveValue("called the player about the delivery");
  await composer.getByTestId("add-note").click();
  await expect.poll(async () => (await db.query(`SELECT body FROM order_notes WHERE order_id = $1`, [order.id])).rows, SOON).toEqual([{ body: "called the player about the delivery" }]);
  await ops.context().close();
  await agent.context().close();
});

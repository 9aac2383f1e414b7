import { expect, signIn, test } from "./fixtures";

/** A paid or delivering order, stuck past its product's limit, whose refund needs no approval. */
const STUCK_REFUNDABLE = `
  SELECT o.id, o.tenant_id, o.order_no, o.player_id, o.state FROM orders o JOIN tenant_settings s ON s.tenant_id = o.tenant_id
  WHERE o.state IN ('paid', 'delivering') AND o.amount <= s.refund_approval_amount
    AND o.state_at < now() - make_interval(secs => (s.max_dwell_seconds ->> o.state)::int)
    AND NOT EXISTS (SELECT 1 FROM refund_approvals a WHERE a.order_id = o.id)
  ORDER BY o.id`;

test("console: an agent finds a stuck order by player id, reads its history, requests a refund and sees it applied", async ({ page, db }, testInfo) => {
  const { rows } = await db.query(`${STUCK_REFUNDABLE} LIMIT 1`);
  const order = rows[0];
  expect(order).toBeDefined();
  await signIn(page, "agent@example.com");

  await page.goto("/orders");
  await page.getByLabel("Order no, player id, payment transaction id or refund id", { exact: true }).fill(order.player_id);
  await page.getByLabel(/Stuck only/).check();
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByTestId(`order-row-${order.tenant_id}-${order.order_no}`);
  await expect(row).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("orders-page.png"), fullPage: true });

  await row.getByRole("link", { name: order.order_no }).click();
  await expect(page.getByRole("heading", { name: order.order_no })).toBeVisible();
  // The timeline holds every kind of fact; the order's transitions are its state history.
  const transitions = page.getByTestId("timeline").locator('li[data-kind="transition"]');
  const before = await transitions.count();
  expect(before).toBeGreaterThan(0);
  await expect(transitions.first()).toContainText(order.state);

  await page.getByRole("button", { name: /Request refund/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("player reports the items never arrived");
  await dialog.getByTestId("confirm-event").click();
  // Done: the dialog closes, and what it did is said under the order's actions.
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("event-outcome")).toContainText("Done: the order is now refunding");

  await expect(page.getByText("refunding", { exact: true }).first()).toBeVisible();
  await expect(transitions).toHaveCount(before + 1);
  await expect(transitions.first()).toContainText("request-refund");
  await expect(transitions.first()).toContainText("player reports the items never arrived");
  await page.screenshot({ path: testInfo.outputPath("order-page.png"), fullPage: true });

  const { rows: written } = await db.query(
    `SELECT from_state, to_state, actor, source, reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`,
    [order.id],
  );
  expect(written).toEqual([
    { from_state: order.state, to_state: "refunding", actor: "staff:agent@example.com", source: "console", reason: "player reports the items never arrived" },
  ]);
});

test("console: a double-click on confirm applies the event once", async ({ page, db }) => {
  const { rows } = await db.query(`${STUCK_REFUNDABLE} OFFSET 1 LIMIT 1`);
  const order = rows[0];
  expect(order).toBeDefined();
  await signIn(page, "agent@example.com");
  await page.goto(`/orders/${order.tenant_id}/${order.order_no}`);

  await page.getByRole("button", { name: /Request refund/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("double-click check");
  await dialog.getByTestId("confirm-event").dblclick();
  await expect(page.getByTestId("event-outcome")).toBeVisible();

  const { rows: written } = await db.query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id]);
  expect(written[0].n).toBe(1);
  const { rows: state } = await db.query(`SELECT state FROM orders WHERE id = $1`, [order.id]);
  expect(state[0].state).toBe("refunding");
});

test("console: the queues show stuck orders and the exceptions inbox", async ({ page }, testInfo) => {
  await signIn(page, "ops@example.com");
  await page.goto("/queues");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("a[href^='/orders/']").first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("queues-page.png"), fullPage: true });
});

test("console: a view whose read failed says so, and Try again reads it again without reloading the page", async ({ page }) => {
  await signIn(page, "agent@example.com");
  // The queues' read model fails twice (the query's one retry included), then answers again.
  let failures = 2;
  await page.route("**/api/console/queues**", (route) =>
    failures-- > 0 ? route.fulfill({ status: 500, contentType: "application/json", body: '{"error":{"code":"internal","message":"Internal error."}}' }) : route.fallback(),
  );
  // Neither the document nor the page's server payload (a request marked `rsc`) is asked again.
  const documents: string[] = [];
  const renders: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
    else if (request.headers()["rsc"]) renders.push(request.url());
  });
  await page.goto("/queues");
  const failed = page.getByRole("alert").filter({ hasText: "This page could not be shown." });
  await expect(failed).toBeVisible();
  const loaded = documents.length;
  const rendered = renders.length;
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Queues" })).toBeVisible();
  await expect(failed).toHaveCount(0);
  expect(documents.length, "Try again must not load the page again").toBe(loaded);
  expect(renders.slice(rendered), "Try again must not render the page on the server").toEqual([]);
});

import { expect, signIn, test } from "./fixtures";

test("ops: a compensating grant on a pending line, recorded once in the ledger", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT o.tenant_id, o.order_no, o.id, l.sku, l.quantity - COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0) AS pending
     FROM orders o JOIN order_lines l ON l.order_id = o.id LEFT JOIN grants g ON g.order_id = o.id AND g.sku = l.sku
     WHERE o.state = 'delivering'
     GROUP BY o.id, l.sku, l.quantity HAVING l.quantity - COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0) > 0
     ORDER BY o.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  await signIn(page, "ops@example.com");
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);

  const line = page.locator("li", { hasText: target.sku }).first();
  await line.getByRole("button", { name: "Grant" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel(/Quantity/)).toHaveValue(String(target.pending));
  await dialog.getByLabel(/Reason/).fill("lost in the 14:00 outage");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId(`grant-outcome-${target.sku}`)).toHaveText(`Granted ${target.pending}.`);

  const ledger = await db.query(`SELECT quantity, actor, source, reason FROM grants WHERE order_id = $1 AND sku = $2 AND actor = 'staff:ops@example.com'`, [
    target.id,
    target.sku,
  ]);
  expect(ledger.rows).toEqual([{ quantity: Number(target.pending), actor: "staff:ops@example.com", source: "console", reason: "lost in the 14:00 outage" }]);
});

test("approvals: a large refund asked by an agent waits for a manager, whose approval applies it", async ({ browser, db }) => {
  const { rows } = await db.query(
    `SELECT o.id, o.tenant_id, o.order_no FROM orders o JOIN tenant_settings s ON s.tenant_id = o.tenant_id
     WHERE o.amount > s.refund_approval_amount AND o.state IN ('paid', 'delivered')
       AND NOT EXISTS (SELECT 1 FROM refund_approvals a WHERE a.order_id = o.id)
     ORDER BY o.id LIMIT 1`,
  );
  const order = rows[0];
  expect(order).toBeDefined();

  const refundRequests = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id])).rows[0].n;
  const earlier = await refundRequests();

  const agent = await browser.newPage();
  await signIn(agent, "agent@example.com");
  await agent.goto(`/orders/${order.tenant_id}/${order.order_no}`);
  await agent.getByRole("button", { name: /Request refund/ }).click();
  await agent.getByRole("dialog").getByLabel(/Reason/).fill("player says the purchase was accidental");
  await agent.getByTestId("confirm-event").click();
  await expect(agent.getByTestId("event-outcome")).toContainText("a manager has been asked to approve");
  expect(await refundRequests()).toBe(earlier);

  const manager = await browser.newPage();
  await signIn(manager, "manager@example.com");
  await manager.goto("/approvals");
  const card = manager.getByTestId(`approval-${order.order_no}`);
  await card.getByLabel(/Your reason/).fill("checked the channel: accidental purchase");
  await card.getByRole("button", { name: /Approve/ }).click();
  await expect(card.getByRole("status")).toHaveText("Approved: the refund was requested.");

  const after = await db.query(
    `SELECT o.state, t.actor, a.status, a.requested_by, a.decided_by FROM orders o
     JOIN refund_approvals a ON a.order_id = o.id
     JOIN order_transitions t ON t.order_id = o.id AND t.event = 'request-refund' AND t.biz_key = 'approval:' || a.id
     WHERE o.id = $1`,
    [order.id],
  );
  expect(after.rows).toEqual([
    { state: "refunding", actor: "staff:manager@example.com", status: "approved", requested_by: "staff:agent@example.com", decided_by: "staff:manager@example.com" },
  ]);
});

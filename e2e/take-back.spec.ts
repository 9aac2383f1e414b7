import { expect, signIn, test } from "./fixtures";

// Issue 16, item 4: a manager sets what a refund does to each kind of goods; an agent sees, before
// asking for a refund, what each line's rule will do; once the refund is confirmed the order lists
// what was taken back and the player page shows the debt the rule recorded.

test("take-back rules: a manager picks debts for currency, the refund dialog previews it, and the confirmed refund records the debt on the player", async ({ browser, db }) => {
  // A delivered xiaoxiao order below the approval amount whose only lines are currency, fully
  // granted and never refunded, from the end of the table (other specs take the first ones).
  const { rows } = await db.query(
    `SELECT o.id, o.tenant_id, o.order_no, o.player_id, min(l.sku) AS sku, sum(l.quantity)::int AS units
     FROM orders o JOIN tenant_settings s ON s.tenant_id = o.tenant_id JOIN order_lines l ON l.order_id = o.id
     WHERE o.tenant_id = 'xiaoxiao' AND o.state = 'delivered' AND o.amount <= s.refund_approval_amount
       AND NOT EXISTS (SELECT 1 FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'request-refund')
     GROUP BY o.id HAVING bool_and(l.kind = 'currency') AND count(*) = 1
     ORDER BY o.id DESC LIMIT 1`,
  );
  const order = rows[0];
  expect(order).toBeDefined();

  const manager = await browser.newPage();
  await signIn(manager, "manager@example.com");
  await manager.goto("/settings");
  const form = manager.getByTestId(`take-back-form-${order.tenant_id}`);
  await form.getByLabel("Currency").selectOption({ label: "Record a debt (negative balance)" });
  // A cosmetic has no balance to owe: the choice is not offered.
  await expect(form.getByLabel("Cosmetics").locator("option")).toHaveText(["Revoke in the game", "Write off (the player keeps it)"]);
  await form.getByRole("button", { name: /Save/ }).click();
  await expect(form.getByRole("status")).toContainText("Saved");
  const saved = await db.query(`SELECT take_back_rules ->> 'currency' AS rule FROM tenant_settings WHERE tenant_id = $1`, [order.tenant_id]);
  expect(saved.rows[0].rule).toBe("negative-balance");

  const ops = await browser.newPage();
  await signIn(ops, "ops@example.com");
  await ops.goto(`/orders/${order.tenant_id}/${order.order_no}`);
  await ops.getByRole("button", { name: /Request refund/ }).click();
  const dialog = ops.getByRole("dialog");
  const preview = dialog.getByTestId(`take-back-preview-${order.sku}`);
  await expect(preview).toContainText(String(order.units));
  await expect(preview).toContainText(`records a debt of ${order.units} ${order.sku} against the player`);
  await dialog.getByLabel(/Reason/).fill("player was charged twice by the channel");
  await ops.getByTestId("confirm-event").click();
  await expect(ops.getByTestId("event-outcome")).toBeVisible();
  await ops.reload();

  await ops.getByRole("button", { name: /Confirm refund/ }).click();
  const confirm = ops.getByRole("dialog");
  await expect(confirm.getByTestId(`take-back-preview-${order.sku}`)).toContainText("records a debt");
  await confirm.getByLabel(/refund receipt/).fill(`rf-e2e-${order.id}`);
  await confirm.getByLabel(/Reason/).fill("the channel confirmed the refund");
  await ops.getByTestId("confirm-event").click();
  await expect(ops.getByTestId("event-outcome")).toBeVisible();
  await ops.reload();

  const backs = await db.query(`SELECT id, units, rule, status FROM take_backs WHERE order_id = $1`, [order.id]);
  expect(backs.rows).toEqual([{ id: expect.anything(), units: -order.units, rule: "negative-balance", status: "recorded" }]);
  const listed = ops.getByTestId(`taken-back-${backs.rows[0].id}`);
  await expect(listed).toContainText(String(order.units));
  await expect(listed).toContainText("Record a debt");

  await ops.goto(`/players/${order.tenant_id}/${encodeURIComponent(order.player_id)}`);
  const debt = ops.getByTestId(`player-debt-${order.sku}`);
  await expect(debt).toContainText(String(order.units));
  await expect(debt.getByRole("link", { name: order.order_no })).toBeVisible();
});

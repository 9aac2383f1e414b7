import { expect, signIn, test } from "./fixtures";

/** A delivering order with a line still pending: ops can compensate it from the order page. */
const PENDING_LINE = `
  SELECT o.tenant_id, o.order_no, o.id, l.sku, l.quantity - COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0) AS pending
  FROM orders o JOIN order_lines l ON l.order_id = o.id LEFT JOIN grants g ON g.order_id = o.id AND g.sku = l.sku
  WHERE o.state = 'delivering'
  GROUP BY o.id, l.sku, l.quantity HAVING l.quantity - COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0) > 0
  ORDER BY o.id DESC LIMIT 1`;

test("audit: a manager finds an ops compensating grant by its actor in the audit explorer, with its reason", async ({ browser, db }, testInfo) => {
  const { rows } = await db.query(PENDING_LINE);
  const target = rows[0];
  expect(target).toBeDefined();
  const reason = "compensation for the 14:00 login outage";

  const ops = await browser.newPage();
  await signIn(ops, "ops@example.com");
  await ops.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  await ops.locator("li", { hasText: target.sku }).first().getByRole("button", { name: "Grant" }).click();
  const dialog = ops.getByRole("dialog");
  await dialog.getByLabel(/Quantity/).fill("1");
  await dialog.getByLabel(/Reason/).fill(reason);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(ops.getByTestId(`grant-outcome-${target.sku}`)).toHaveText("Granted 1.");
  const { rows: ledger } = await db.query(`SELECT quantity, source, reason FROM grants WHERE order_id = $1 AND actor = 'staff:ops@example.com'`, [target.id]);
  expect(ledger).toEqual([{ quantity: 1, source: "console", reason }]);

  const manager = await browser.newPage();
  await signIn(manager, "manager@example.com");
  await manager.goto("/audit");
  await expect(manager.getByTestId("chain-status")).toBeVisible();
  await manager.getByLabel("Actor").fill("staff:ops@example.com");
  await manager.getByLabel("Kind").selectOption("grant");
  await manager.getByRole("button", { name: "Apply filters" }).click();
  await expect(manager).toHaveURL(/actor=staff%3Aops%40example\.com/);
  const row = manager.getByTestId("audit-table").locator('tr[data-kind="grant"]', { hasText: reason });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Granted ${target.sku} × 1`);
  await expect(row).toContainText(target.order_no);
  await expect(row).toContainText("staff:ops@example.com");
  await manager.screenshot({ path: testInfo.outputPath("audit-explorer.png"), fullPage: true });
});

test("orders: an internal note appears in the order timeline, a correction names it, and no webhook carries either", async ({ page, db }, testInfo) => {
  const { rows } = await db.query(`SELECT id, tenant_id, order_no FROM orders WHERE state = 'delivered' ORDER BY id LIMIT 1`);
  const order = rows[0];
  expect(order).toBeDefined();
  const outbox = async () => (await db.query(`SELECT count(*)::int AS n FROM outbox_messages WHERE order_id = $1`, [order.id])).rows[0].n;
  const messagesBefore = await outbox();

  await signIn(page, "agent@example.com");
  await page.goto(`/orders/${order.tenant_id}/${order.order_no}`);
  const timeline = page.getByTestId("timeline");
  await page.getByLabel("Add an internal note").fill("Player called: the gems arrived two hours late");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("note-composer").getByRole("status")).toContainText("added");
  const note = timeline.locator('li[data-kind="note"]').first();
  await expect(note).toContainText("Player called: the gems arrived two hours late");
  await expect(note).toContainText("staff:agent@example.com");

  await note.getByRole("button", { name: "Correct this note" }).click();
  const correction = page.getByLabel(/Correct note #\d+/);
  await correction.fill("Correction: it was the dragon skin, not the gems");
  await page.getByRole("button", { name: "Add correction" }).click();
  const latest = timeline.locator('li[data-kind="note"]').first();
  await expect(latest).toContainText("Correction: it was the dragon skin, not the gems");
  await expect(latest.getByRole("link", { name: /corrects note #\d+/ })).toBeVisible();

  await page.screenshot({ path: testInfo.outputPath("order-timeline.png"), fullPage: true });

  // The filter shows notes alone.
  await page.getByRole("button", { name: /^Notes \(2\)$/ }).click();
  await expect(timeline.locator("li")).toHaveCount(2);

  const { rows: notes } = await db.query(`SELECT author, body, corrects_id IS NOT NULL AS correction FROM order_notes WHERE order_id = $1 ORDER BY id`, [order.id]);
  expect(notes).toEqual([
    { author: "staff:agent@example.com", body: "Player called: the gems arrived two hours late", correction: false },
    { author: "staff:agent@example.com", body: "Correction: it was the dragon skin, not the gems", correction: true },
  ]);
  expect(await outbox()).toBe(messagesBefore);
});

test("security: an admin reads the sign-ins in the security log, which the manager's explorer leaves out", async ({ page, db }, testInfo) => {
  await signIn(page, "admin@example.com");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security log" }).click();
  await expect(page.getByRole("heading", { name: "Security log" })).toBeVisible();
  await page.getByLabel("Person").fill("admin@example.com");
  await page.getByLabel("What").selectOption("sign-in.succeeded");
  await page.getByRole("button", { name: "Apply filters" }).click();
  const rows = page.getByTestId("audit-table").locator("tbody tr");
  await expect(rows.first()).toContainText("Signed in");
  await expect(rows.first()).toContainText("staff:admin@example.com");
  await page.screenshot({ path: testInfo.outputPath("security-log.png"), fullPage: true });

  const { rows: facts } = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'sign-in.succeeded' AND target = 'admin@example.com' AND tenant_id IS NULL`);
  await expect(rows).toHaveCount(Math.min(facts[0].n, 50));
});

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type pg from "pg";
import { expect, signIn, test } from "./fixtures";

// Issue 29, items 2, 3 and 6 for cases: a channel refund that never left says so (case, queue,
// overview) and offers what a person can do; an agent is told in words why a case has no actions;
// case dialogs close on success and say what they did above the cases.

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

test("cases: an agent is told who works cases — on the queue and on every case — instead of an empty Actions column", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, o.order_no FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.kind = 'delivery-incomplete' AND e.status = 'open' AND e.owner IS NULL AND e.tenant_id = 'xiaoxiao' ORDER BY e.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();

  await signIn(page, "agent@example.com");
  await page.goto("/queues");
  await expect(page.getByTestId("cases-not-for-role")).toContainText("Cases are worked by ops or managers.");
  await expect(page.locator("#cases")).not.toContainText("Take a case");
  const first = page.getByTestId(/^queue-case-\d+$/).first();
  const firstId = (await first.getAttribute("data-testid"))!.replace("queue-case-", "");
  await expect(page.getByTestId(`case-blocked-${firstId}`)).toHaveText("cases are worked by ops or managers: ask them, or open the order");
  await expect(page.getByTestId(`case-actions-${firstId}`).getByRole("button")).toHaveCount(0);

  // The unassigned delivery case the issue names: on its order, the same words where the actions would be.
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  await expect(page.getByTestId(`case-blocked-${target.id}`)).toHaveText("cases are worked by ops or managers: ask them, or open the order");
  await expect(page.getByTestId(`case-actions-${target.id}`).getByRole("button")).toHaveCount(0);
});

test("cases: a refund on a product without a webhook says it has not reached the channel; ops record how the channel was told", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, o.order_no, o.id AS order_id FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.kind IN ('second-payment', 'payment-after-refund') AND e.status = 'open'
       AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.case_id = e.id) ORDER BY e.id DESC LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  const webhook = (await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [target.tenant_id])).rows[0];
  expect(webhook.webhook_url).toBeNull();

  await signIn(page, "ops@example.com");
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  const cases = page.getByTestId("order-cases");
  const card = cases.getByTestId(`case-${target.id}`);
  await card.getByRole("button", { name: /^Refund / }).click();
  const dialog = page.getByRole("dialog");
  // Offered, but the person is told first that nothing will carry the request.
  await expect(dialog).toContainText("This product has no webhook configured: the refund is recorded against the payment, but the request is not sent to the channel.");
  await dialog.getByLabel(/Reason/).fill("paid after the timeout; the player bought again");
  await dialog.getByTestId("case-confirm-refund").click();
  await expect(dialog).toHaveCount(0);
  await expect(cases.getByTestId("case-notice")).toContainText("recorded, but not sent to the channel: this product has no webhook configured");

  const refundId = (await db.query(`SELECT refund_id FROM payment_refunds WHERE case_id = $1`, [target.id])).rows[0].refund_id as string;
  await expect(card.getByTestId(`case-refund-${refundId}`)).toContainText("not sent to the payment channel: this product has no webhook configured");
  await expect(card).not.toContainText("with the payment channel");
  await expect(card.getByTestId(`case-refund-needs-webhook-${target.id}`)).toHaveText("Resending needs a webhook: this product has none configured yet.");

  // The queue says the same of the row, and the overview counts it with why.
  await page.goto("/queues?cases=mine");
  await expect(page.getByTestId(`queue-case-refund-${refundId}`)).toContainText("not sent to the payment channel: this product has no webhook configured");
  await page.goto("/");
  await expect(page.getByTestId(`overview-unsent-${target.tenant_id}-no-webhook`)).toContainText(`${target.tenant_id}: `);
  await expect(page.getByTestId("overview-unsent-refunds")).toContainText("Refunds that have not reached the channel");

  // Told through the channel's own portal: recorded with a reason; the dialog closes and says so.
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  await card.getByRole("button", { name: "Record that the channel was told" }).click();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByLabel(/What was done/).fill("refund asked for in the channel's merchant portal, quoting the refund number");
  await dialog.getByTestId("case-confirm-refund-told").click();
  await expect(dialog).toHaveCount(0);
  await expect(cases.getByTestId("case-notice")).toContainText(`Recorded: refund ${refundId} is with the channel, waiting for its answer.`);
  await expect(card.getByTestId(`case-refund-${refundId}`)).toContainText("with the payment channel, told another way by ops@example.com");

  const refund = (await db.query(`SELECT status FROM payment_refunds WHERE refund_id = $1`, [refundId])).rows[0];
  expect(refund).toEqual({ status: "sent" });
  const facts = await db.query(`SELECT action, actor, detail ->> 'means' AS means FROM audit_events WHERE target = $1 ORDER BY id`, [`refund:${refundId}`]);
  expect(facts.rows).toEqual([
    { action: "refund.requested", actor: "staff:ops@example.com", means: null },
    { action: "refund.sent", actor: "staff:ops@example.com", means: "other" },
  ]);
});

test("cases: dismiss and assign close their dialog on success, and the outcome is said above the cases; their canned reasons are offered", async ({ page, db }) => {
  // The products' canned reasons for case actions (settings), put back as they were afterwards.
  const saved = (await db.query(`SELECT tenant_id, canned_reasons FROM tenant_settings`)).rows;
  await db.query(`UPDATE tenant_settings SET canned_reasons = canned_reasons || '{"case-dismiss": ["duplicate notification from the channel"]}'::jsonb`);
  try {
    await dismissThenAssign(page, db);
  } finally {
    for (const row of saved) await db.query(`UPDATE tenant_settings SET canned_reasons = $2 WHERE tenant_id = $1`, [row.tenant_id, row.canned_reasons]);
  }
});

async function dismissThenAssign(page: Page, db: pg.Pool): Promise<void> {
  await signIn(page, "manager@example.com");
  await page.goto("/queues?cases=unassigned");
  const notice = page.locator("#cases").getByTestId("case-notice");
  const dialog = page.getByRole("dialog");
  const firstCase = async () => Number((await page.getByTestId(/^queue-case-\d+$/).first().getAttribute("data-testid"))!.replace("queue-case-", ""));

  const dismissed = await firstCase();
  await page.getByTestId(`queue-case-${dismissed}`).getByRole("button", { name: "Dismiss" }).click();
  await dialog.getByTestId("canned-reason").selectOption("duplicate notification from the channel");
  await expect(dialog.getByLabel(/Reason/)).toHaveValue("duplicate notification from the channel");
  await dialog.getByTestId("case-confirm-dismiss").click();
  await expect(dialog).toHaveCount(0);
  await expect(notice).toContainText(`Case #${dismissed}`);
  await expect(notice).toContainText("Dismissed.");
  await expect(page.getByTestId(`queue-case-${dismissed}`)).toHaveCount(0);
  expect((await db.query(`SELECT status FROM order_exceptions WHERE id = $1`, [dismissed])).rows[0]).toEqual({ status: "dismissed" });

  const assigned = await firstCase();
  expect(assigned).not.toBe(dismissed);
  await page.getByTestId(`queue-case-${assigned}`).getByRole("button", { name: "Assign" }).click();
  await dialog.getByLabel("Assign to").selectOption("ops@example.com");
  await dialog.getByLabel(/Reason/).fill("ops are on the channel call today");
  await dialog.getByTestId("case-confirm-assign").click();
  await expect(dialog).toHaveCount(0);
  await expect(notice).toContainText(`Case #${assigned}`);
  await expect(notice).toContainText("Assigned to ops@example.com.");
  expect((await db.query(`SELECT owner FROM order_exceptions WHERE id = $1`, [assigned])).rows[0]).toEqual({ owner: "staff:ops@example.com" });
}

import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import type pg from "pg";
import { channelKey } from "./channel";
import { expect, signIn, test } from "./fixtures";

// Issue 29 on the order page: dialogs close on success and say what they did where the change is,
// no live refresh replaces a dialog someone is reading, refund approvals are said before Confirm
// (and not offered twice; the approving manager sees what the refund takes back), take-backs say
// what happened, a refusal staff recorded is not the channel's, and an honoured order names its
// channel and links the order its payment reached first.

interface PlacedOrder {
  readonly id: number;
  readonly orderNo: string;
  readonly key: string;
}

/**
 * A xiaoxiao order (external delivery, no revoke endpoint) of 20 gems and a skin, paid by the
 * channel and delivered by the game through the integration API, the way real ones arrive.
 */
async function deliveredOrder(db: pg.Pool, request: APIRequestContext, amount: number): Promise<PlacedOrder> {
  const key = await channelKey(db, "xiaoxiao", "alipay");
  const headers = { authorization: `Bearer ${key}` };
  const suffix = randomUUID().slice(0, 8);
  const orderNo = `E2E-OP-${suffix}`;
  const lines = [
    { sku: "e2e-gems", kind: "currency", quantity: 20 },
    { sku: "e2e-skin", kind: "cosmetic", quantity: 1 },
  ];
  const created = await request.post("/api/v1/orders", { headers, data: { orderNo, playerId: `e2e-op-${suffix}`, currency: "CNY", amount, lines } });
  expect(created.status(), await created.text()).toBe(201);
  const event = async (data: object) => {
    const answer = await request.post(`/api/v1/orders/${orderNo}/events`, { headers, data });
    expect(answer.status(), await answer.text()).toBe(200);
  };
  await event({ event: "pay", bizKey: `ali-op-${suffix}`, amount });
  await event({ event: "begin-delivery", bizKey: `ticket-${suffix}` });
  for (const line of lines) {
    const granted = await request.post(`/api/v1/orders/${orderNo}/grants`, { headers, data: { sku: line.sku, quantity: line.quantity, grantId: `g-${line.sku}` } });
    expect(granted.status(), await granted.text()).toBe(200);
  }
  await event({ event: "confirm-delivery", bizKey: `ticket-${suffix}` });
  const { rows } = await db.query(`SELECT id FROM orders WHERE tenant_id = 'xiaoxiao' AND order_no = $1`, [orderNo]);
  return { id: Number(rows[0].id), orderNo, key };
}

/** Opens an event's form from the order page's actions, fills the reason (and the receipt), confirms. */
async function submitEvent(page: Page, button: RegExp, reason: string, receipt?: string) {
  await page.getByRole("button", { name: button }).click();
  const dialog = page.getByRole("dialog");
  if (receipt) await dialog.getByLabel(/refund receipt/).fill(receipt);
  await dialog.getByLabel(/Reason/).fill(reason);
  await dialog.getByTestId("confirm-event").click();
  return dialog;
}

test("order page: a refund's dialog closes on success and says what it did; a staff refusal and the take-backs say what happened", async ({ page, db, request }) => {
  const order = await deliveredOrder(db, request, 1_00);
  // The default rules (another spec may have changed xiaoxiao's): gems are revoked, a skin written off.
  await db.query(`UPDATE tenant_settings SET take_back_rules = take_back_rules || '{"currency": "revoke", "cosmetic": "write-off"}' WHERE tenant_id = 'xiaoxiao'`);
  await signIn(page, "ops@example.com");
  await page.goto(`/orders/xiaoxiao/${order.orderNo}`);

  // Item 6: the dialog goes away, and the outcome is said under the order's actions.
  const dialog = await submitEvent(page, /Request refund/, "player asked for a refund");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("event-outcome")).toContainText("Done: the order is now refunding");
  await expect(page.getByRole("heading", { name: order.orderNo }).locator("..")).toContainText("refunding");

  // Item 11: ops record the channel's refusal; it is not "refused by the channel (staff:…)".
  await submitEvent(page, /Reject refund/, "the channel declined: outside its refund window", `rf-declined-${order.id}`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const refused = page.getByTestId("refused-refunds");
  await expect(refused).toContainText(`Refusal recorded by staff:ops@example.com in the console (receipt rf-declined-${order.id})`);
  await expect(refused).not.toContainText("Refused by the channel");

  // Item 10: refunded, the revoke fails (no revoke endpoint) and the skin is written off.
  await submitEvent(page, /Request refund/, "player asked again, the channel agreed");
  await expect(page.getByTestId("event-outcome")).toContainText("refunding");
  await submitEvent(page, /Confirm refund/, "the channel confirmed the refund", `rf-ok-${order.id}`);
  await expect(page.getByTestId("event-outcome")).toContainText("Done: the order is now refunded");
  // The worker finds no revoke endpoint and gives the call up; the test does not wait for its timer.
  await db.query(`UPDATE take_backs SET status = 'failed', last_error = 'no revoke endpoint configured' WHERE order_id = $1 AND rule = 'revoke'`, [order.id]);
  await page.reload();

  const backs = (await db.query(`SELECT id, sku, units, rule, status FROM take_backs WHERE order_id = $1 ORDER BY sku`, [order.id])).rows;
  expect(backs).toEqual([
    { id: expect.anything(), sku: "e2e-gems", units: -20, rule: "revoke", status: "failed" },
    { id: expect.anything(), sku: "e2e-skin", units: -1, rule: "write-off", status: "recorded" },
  ]);
  const revoked = page.getByTestId(`taken-back-${backs[0].id}`);
  await expect(revoked).toContainText("Not taken back: the call to the game failed, the player still has it");
  await expect(revoked).not.toContainText("Taken back:");
  const writtenOff = page.getByTestId(`taken-back-${backs[1].id}`);
  await expect(writtenOff).toContainText("Written off: the player keeps it");
  await expect(writtenOff).not.toContainText("taken back");
  await expect(page.getByTestId("line-take-back-e2e-gems")).toHaveText(" · not taken back 20 (the call failed)");
  await expect(page.getByTestId("line-take-back-e2e-skin")).toHaveText(" · written off 1 (the player keeps it)");
  await expect(page.locator("li", { hasText: "e2e-gems" }).first()).not.toContainText("reversed");
});

test("order page: a refund above the approval amount says so before Confirm, is not offered twice, and the manager approving it sees what it takes back", async ({ browser, db, request }) => {
  // Above xiaoxiao's approval amount (¥100.00).
  const order = await deliveredOrder(db, request, 128_00);
  const agent = await browser.newPage();
  await signIn(agent, "agent@example.com");
  await agent.goto(`/orders/xiaoxiao/${order.orderNo}`);

  await agent.getByRole("button", { name: /Request refund/ }).click();
  const dialog = agent.getByRole("dialog");
  await expect(dialog.getByTestId("needs-approval")).toContainText(/above the product's approval amount of (CN)?¥100\.00: confirming asks a manager to approve it/);
  await expect(dialog.getByTestId("confirm-event")).toHaveText("Ask a manager to approve");
  await expect(dialog.getByTestId("take-back-preview-e2e-gems")).toContainText("Currency");
  await dialog.getByLabel(/Reason/).fill("player says the purchase was accidental");
  await dialog.getByTestId("confirm-event").click();
  await expect(dialog).toHaveCount(0);
  await expect(agent.getByTestId("event-outcome")).toContainText("a manager has been asked to approve");

  // The banner says there is no need to ask again: the button is gone with it.
  await expect(agent.getByTestId("pending-approval")).toContainText("No need to ask again");
  await expect(agent.getByRole("button", { name: /Request refund/ })).toHaveCount(0);

  const manager = await browser.newPage();
  await signIn(manager, "manager@example.com");
  await manager.goto("/approvals");
  const card = manager.getByTestId(`approval-${order.orderNo}`);
  await expect(card.getByTestId("take-back-preview-e2e-gems")).toContainText("asks the game to take back 20");
  await expect(card.getByTestId("take-back-preview-e2e-skin")).toContainText("writes off 1");
});

test("order page: an honoured late payment names its channel and links the order it reached first", async ({ page, db, request }) => {
  // An order the timeout closed, then paid by the channel: a payment-after-close case.
  const key = await channelKey(db, "xiaoxiao", "wechat");
  const headers = { authorization: `Bearer ${key}` };
  const suffix = randomUUID().slice(0, 8);
  const orderNo = `E2E-HON-${suffix}`;
  const created = await request.post("/api/v1/orders", {
    headers,
    data: { orderNo, playerId: `e2e-hon-${suffix}`, currency: "CNY", amount: 6_00, lines: [{ sku: "e2e-gems", kind: "currency", quantity: 60 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const closed = await request.post(`/api/v1/orders/${orderNo}/events`, { headers, data: { event: "close", bizKey: "timeout" } });
  expect(closed.status(), await closed.text()).toBe(200);
  await request.post(`/api/v1/orders/${orderNo}/events`, { headers, data: { event: "pay", bizKey: `wx-late-${suffix}`, amount: 6_00 } });
  const filed = (await db.query(`SELECT e.id FROM order_exceptions e JOIN orders o ON o.id = e.order_id WHERE o.order_no = $1 AND e.kind = 'payment-after-close'`, [orderNo])).rows;
  expect(filed).toHaveLength(1);
  const caseId = Number(filed[0].id);

  await signIn(page, "ops@example.com");
  await page.goto(`/orders/xiaoxiao/${orderNo}`);
  const card = page.getByTestId("order-cases").getByTestId(`case-${caseId}`);
  await card.getByTestId(`case-take-${caseId}`).click();
  await card.getByRole("button", { name: /Honour/ }).click();
  await page.getByRole("dialog").getByLabel(/Reason/).fill("the player still wants the gems");
  await page.getByRole("dialog").getByTestId("case-confirm-honour").click();
  await expect.poll(async () => (await db.query(`SELECT resolution_ref FROM order_exceptions WHERE id = $1`, [caseId])).rows[0].resolution_ref).toBe(`${orderNo}-H${caseId}`);

  await page.goto(`/orders/xiaoxiao/${orderNo}-H${caseId}`);
  await expect(page.getByTestId("payment-channel")).toHaveText(/wechat-/);
  await expect(page.getByTestId("payment-recorded-by")).toContainText("recorded by staff:ops@example.com");
  const honours = page.getByTestId("payment-honours");
  await expect(honours).toContainText(`after it had closed (case #${caseId})`);
  await honours.getByRole("link", { name: orderNo }).click();
  await expect(page.getByRole("heading", { name: orderNo, exact: true })).toBeVisible();
});

test("order page and queues: no live refresh replaces or closes a dialog someone is reading", async ({ page, db, request }) => {
  const polls = { order: 0, model: 0, queues: 0 };
  page.on("request", (r) => {
    if (r.url().includes("/api/console/orders/")) {
      if (new URL(r.url()).pathname.endsWith("/page")) polls.model++;
      else polls.order++;
    }
    if (r.url().includes("/api/console/queues")) polls.queues++;
  });
  await signIn(page, "manager@example.com");
  await page.clock.install();

  // The order page: while a form is open the poll goes on (presence, and the form's warning that the
  // order moved, need it), but the page's model is not read again under the form, and what was typed stays.
  const order = await deliveredOrder(db, request, 1_00);
  await page.goto(`/orders/xiaoxiao/${order.orderNo}`);
  await page.getByRole("button", { name: /Request refund/ }).click();
  const form = page.getByRole("dialog");
  await form.getByLabel(/Reason/).fill("reading the take-back preview first");
  await expect(page.getByTestId("order-live")).toContainText("Holding still while a form is open");
  const orderPolls = polls.order;
  const modelReads = polls.model;
  await page.clock.fastForward(20_000);
  await page.evaluate(() => undefined);
  await expect.poll(() => polls.order).toBeGreaterThan(orderPolls);
  expect(polls.model).toBe(modelReads);
  await expect(form.getByLabel(/Reason/)).toHaveValue("reading the take-back preview first");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("order-live")).toContainText("Live");

  // The queues: a case dismissed by someone else while its dialog is open stays as it was read.
  const { rows } = await db.query(
    `SELECT e.id FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.status = 'open' AND e.kind IN ('amount-mismatch', 'second-payment', 'payment-after-refund') ORDER BY e.id DESC LIMIT 1`,
  );
  const caseId = Number(rows[0].id);
  await page.goto("/queues?cases=all");
  const row = page.getByTestId(`queue-case-${caseId}`);
  await row.getByRole("button", { name: "Dismiss" }).click();
  const dismiss = page.getByRole("dialog");
  await dismiss.getByLabel(/Reason/).fill("checking with the channel first");
  await db.query(`UPDATE order_exceptions SET status = 'dismissed', resolved_at = now(), resolved_by = 'staff:admin@example.com' WHERE id = $1`, [caseId]);
  await expect(page.getByTestId("queues-live")).toContainText("Paused while a dialog is open");
  const queuePolls = polls.queues;
  await page.clock.fastForward(20_000);
  await page.evaluate(() => undefined);
  expect(polls.queues).toBe(queuePolls);
  await expect(dismiss).toBeVisible();
  await expect(dismiss.getByLabel(/Reason/)).toHaveValue("checking with the channel first");

  // Closed: the queue catches up at its next refresh.
  await dismiss.getByRole("button", { name: "Cancel" }).click();
  await page.clock.fastForward(6_000);
  await expect(row).toHaveCount(0);
});

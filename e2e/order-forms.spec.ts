import type { Page } from "@playwright/test";
import { placeOrder } from "./channel";
import { expect, signIn, test } from "./fixtures";

// Orders of xiaoxiao (external delivery: no worker moves its paid orders on by itself), placed and
// paid through the API for each test. Its refunds above ¥100 need a manager's approval.

test("orders: a stale refusal keeps what was typed; after reloading the order, the same form applies without retyping", async ({ browser, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 30_00 });
  const path = `/orders/${order.tenantId}/${order.orderNo}`;

  const agent = await browser.newPage();
  await signIn(agent, "agent@example.com");
  await agent.goto(path);
  await agent.getByRole("button", { name: /Request refund/ }).click();
  const form = agent.getByRole("dialog");
  await form.getByLabel(/Reason/).fill("player was charged twice by the channel");

  // Meanwhile a colleague moves the order on.
  const ops = await browser.newPage();
  await signIn(ops, "ops@example.com");
  await ops.goto(path);
  await ops.getByRole("button", { name: /Begin delivery/ }).click();
  await ops.getByRole("dialog").getByLabel(/Reason/).fill("starting delivery by hand");
  await ops.getByRole("dialog").getByTestId("confirm-event").click();
  await expect(ops.getByTestId("event-outcome")).toContainText("Done: the order is now delivering");

  // The agent's form was rendered at the old version: refused as stale, nothing typed is lost.
  await form.getByTestId("confirm-event").click();
  await expect(form.getByRole("alert")).toContainText("Nothing was changed");
  await expect(form.getByRole("alert")).toContainText("begin-delivery");
  await expect(form.getByLabel(/Reason/)).toHaveValue("player was charged twice by the channel");
  // Confirming again would be stale again: the form offers to reload the order instead.
  await expect(form.getByTestId("confirm-event")).toHaveCount(0);
  await form.getByTestId("reload-order").click();
  await expect(form.getByRole("status")).toContainText("Reloaded: the order is now at version 2");
  await expect(form.getByLabel(/Reason/)).toHaveValue("player was charged twice by the channel");

  await form.getByTestId("confirm-event").click();
  await expect(form).toHaveCount(0);
  await expect(agent.getByTestId("event-outcome")).toContainText("Done: the order is now refunding");
  const { rows: written } = await db.query(`SELECT from_state, actor, reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id]);
  expect(written).toEqual([{ from_state: "delivering", actor: "staff:agent@example.com", reason: "player was charged twice by the channel" }]);
});

test("orders: a refusal of a too-short reason keeps every field, and nothing is written", async ({ page, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 6_00, paid: false });
  await signIn(page, "ops@example.com");
  await page.goto(`/orders/${order.tenantId}/${order.orderNo}`);
  await page.getByRole("button", { name: /Confirm payment/ }).click();
  const form = page.getByRole("dialog");
  await form.getByLabel(/payment transaction id/).fill(`e2e-manual-${order.id}`);
  await form.getByLabel(/Amount paid/).fill("1000000000");
  await form.getByLabel(/Reason/).fill("  ok   ");
  await form.getByTestId("confirm-event").click();
  await expect(form.getByRole("alert")).toBeVisible();
  await expect(form.getByLabel(/payment transaction id/)).toHaveValue(`e2e-manual-${order.id}`);
  await expect(form.getByLabel(/Amount paid/)).toHaveValue("1000000000");
  await expect(form.getByLabel(/Reason/)).toHaveValue("  ok   ");
  const { rows: none } = await db.query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1 AND event = 'pay'`, [order.id]);
  expect(none[0].n).toBe(0);
});

test("orders: a manager sets canned reasons; an agent closes an unpaid order with one, after confirming it cannot be undone", async ({ browser, db, request }) => {
  const manager = await browser.newPage();
  await signIn(manager, "manager@example.com");
  await manager.goto("/settings");
  const settings = manager.getByTestId("canned-reasons-form-xiaoxiao");
  await settings.getByLabel("Close order").fill("Player abandoned the purchase at the cashier\nDuplicate order created by the game client");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");
  const { rows: audited } = await db.query(`SELECT detail FROM audit_events WHERE action = 'settings.updated' AND target = 'tenant:xiaoxiao' ORDER BY id DESC LIMIT 1`);
  expect(audited[0].detail).toMatchObject({ field: "canned_reasons", after: { close: ["Player abandoned the purchase at the cashier", "Duplicate order created by the game client"] } });

  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 6_00, paid: false });
  const agent = await browser.newPage();
  await signIn(agent, "agent@example.com");
  await agent.goto(`/orders/${order.tenantId}/${order.orderNo}`);
  await agent.getByRole("button", { name: /Close order/ }).click();
  const form = agent.getByRole("dialog");
  await expect(form).toContainText("Closing cannot be undone");
  await form.getByTestId("canned-reason").selectOption("Duplicate order created by the game client");
  await expect(form.getByLabel(/Reason/)).toHaveValue("Duplicate order created by the game client");
  // A picked reason stays editable.
  await form.getByLabel(/Reason/).press("End");
  await form.getByLabel(/Reason/).pressSequentially(" (ticket 4411)");
  await expect(form.getByTestId("confirm-event")).toBeDisabled();
  await form.getByLabel("I understand that closing this order cannot be undone.").check();
  await form.getByTestId("confirm-event").click();
  await expect(agent.getByTestId("event-outcome")).toContainText("Done: the order is now closed");

  const { rows: written } = await db.query(`SELECT event, to_state, reason FROM order_transitions WHERE order_id = $1 AND event = 'close'`, [order.id]);
  expect(written).toEqual([{ event: "close", to_state: "closed", reason: "Duplicate order created by the game client (ticket 4411)" }]);
});

/** Presses Tab until the focused element matches, as a keyboard user would reach it. */
async function tabTo(page: Page, matches: (el: { tag: string; text: string; name: string | null }) => boolean, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { tag: el?.tagName.toLowerCase() ?? "", text: el?.textContent?.trim() ?? "", name: el?.getAttribute("name") ?? null };
    });
    if (matches(focused)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("never reached by Tab");
}

test("orders: an event form opened, filled, submitted and closed with the keyboard only", async ({ page, db, request }) => {
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 12_00 });
  await signIn(page, "agent@example.com");
  await page.goto(`/orders/${order.tenantId}/${order.orderNo}`);

  await tabTo(page, (el) => el.tag === "button" && el.text.startsWith("Request refund"));
  await page.keyboard.press("Enter");
  const form = page.getByRole("dialog");
  await expect(form).toBeVisible();
  // Focus moved into the dialog; Tab stays in it until it closes.
  await tabTo(page, (el) => el.tag === "textarea" && el.name === "reason", 10);
  await page.keyboard.type("player asked by phone, no items used");
  await tabTo(page, (el) => el.tag === "button" && el.text.startsWith("Confirm"), 10);
  await page.keyboard.press("Enter");
  // Done: the dialog closes itself and says what it did on the page.
  await expect(form).toBeHidden();
  await expect(page.getByTestId("event-outcome")).toContainText("Done: the order is now refunding");

  const { rows: written } = await db.query(`SELECT reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id]);
  expect(written).toEqual([{ reason: "player asked by phone, no items used" }]);
});

test("orders: the header shows the payment, the stuck flag with its limit, and a pending approval so nobody asks twice", async ({ browser, db, request }) => {
  // Above xiaoxiao's approval amount, paid 40 minutes ago (its limit in paid: 5 minutes).
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 328_00, stuckMinutes: 40 });
  const path = `/orders/${order.tenantId}/${order.orderNo}`;
  const agent = await browser.newPage();
  await signIn(agent, "agent@example.com");
  await agent.goto(path);
  await expect(agent.getByTestId("payment-transaction-id")).toHaveText(order.paymentTxn);
  await expect(agent.getByTestId("payment-channel")).toHaveText(/^alipay-/);
  await expect(agent.getByTestId("stuck-flag")).toContainText("Paid for 40 minutes: past this product's limit of 5 minutes");
  await expect(agent.getByRole("link", { name: order.playerId })).toHaveAttribute("href", `/players/xiaoxiao/${order.playerId}`);
  // Only ops and managers may begin delivery: said, rather than listed as if the agent could.
  await expect(agent.getByTestId("next-begin-delivery")).toContainText("ops and managers only");

  await agent.getByRole("button", { name: /Request refund/ }).click();
  await agent.getByRole("dialog").getByLabel(/Reason/).fill("player says the purchase was a mistake");
  await agent.getByRole("dialog").getByTestId("confirm-event").click();
  await expect(agent.getByTestId("event-outcome")).toContainText("a manager has been asked to approve");

  const colleague = await browser.newPage();
  await signIn(colleague, "agent@example.com");
  await colleague.goto(path);
  await expect(colleague.getByTestId("pending-approval")).toContainText("waiting for a manager: asked by staff:agent@example.com");
  await expect(colleague.getByTestId("pending-approval")).toContainText("player says the purchase was a mistake");
});

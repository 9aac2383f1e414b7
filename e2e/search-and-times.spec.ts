import { randomUUID } from "node:crypto";
import type pg from "pg";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 29, part A: the header search finds every id the console shows, one clock and one rounding
// for the times on a line, one way to write money, and an empty search said once.

interface Made {
  readonly orderNo: string;
  readonly ids: Readonly<Record<string, string>>;
}

/**
 * A delivered order of xiaoxiao's with a payment, a second payment on its case, a refund the channel
 * refused, a channel refund of the second payment, and a grant — every id unique to this run. It
 * has been delivered for 5 days 14 hours: rounded to the nearest day that is 6, down it is 5.
 */
async function makeOrder(db: pg.Pool): Promise<Made> {
  const r = randomUUID().slice(0, 8).toUpperCase();
  const orderNo = `E2E-SRCH-${r}`;
  const ids = {
    secondPayment: `wx-second-${r}`,
    refusedReceipt: `WX-RJ-${r}`,
    channelRefundId: `rf-e2e-${r}`,
    channelRef: `WXREF-${r}`,
    grantId: `srv-grant-${r}`,
    lowerOrderNo: orderNo.toLowerCase(),
  };
  await db.query(
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
       VALUES ('xiaoxiao', $1, $2, 600, 'CNY', 'delivered', now() - interval '5 days 14 hours', now() - interval '6 days', now())
       RETURNING id
     ), l AS (
       INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity) SELECT 'xiaoxiao', id, 'gems-60', 'currency', 60 FROM o
     ), t AS (
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
       SELECT 'xiaoxiao', o.id, x.event, x.f, x.t, x.k, x.actor, x.source, x.reason, now() - x.ago
       FROM o, (VALUES
         ('pay', 'created', 'paid', $3, 'channel:wechat', 'callback', NULL, interval '5 days 23 hours'),
         ('request-refund', 'paid', 'refunding', $4, 'staff:agent@example.com', 'console', 'player asked for a refund', interval '5 days 22 hours'),
         ('reject-refund', 'refunding', 'paid', $5, 'channel:wechat', 'callback', 'the channel refused', interval '5 days 21 hours'),
         ('begin-delivery', 'paid', 'delivering', '', 'system:delivery', 'job', NULL, interval '5 days 15 hours'),
         ('confirm-delivery', 'delivering', 'delivered', '', 'system:delivery', 'job', NULL, interval '5 days 14 hours')
       ) AS x(event, f, t, k, actor, source, reason, ago)
     ), g AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, created_at)
       SELECT 'xiaoxiao', id, 'gems-60', $6, 60, 'api', 'game:server', now() - interval '5 days 15 hours' FROM o
     ), e AS (
       INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, detail, status, resolved_at, resolved_by, resolution)
       SELECT 'xiaoxiao', id, 'second-payment', 'pay', $7, 600, 'channel:wechat', '{}', 'resolved', now() - interval '5 days', 'staff:ops@example.com', 'refund' FROM o
       RETURNING id, order_id
     )
     INSERT INTO payment_refunds (tenant_id, refund_id, order_id, case_id, channel, payment_txn, payment_amount, amount, currency, reason, status, requested_by, channel_ref, settled_by)
     SELECT 'xiaoxiao', $8, e.order_id, e.id, 'wechat', $7, 600, 600, 'CNY', 'second payment', 'confirmed', 'staff:ops@example.com', $9, 'channel:wechat' FROM e`,
    [orderNo, `player-${r}`, `wx-first-${r}`, `console:${r}`, ids.refusedReceipt, ids.grantId, ids.secondPayment, ids.channelRefundId, ids.channelRef],
  );
  return { orderNo, ids };
}

test("search: every id staff paste into the header opens its order", async ({ page, db }) => {
  const made = await makeOrder(db);
  await signIn(page, "agent@example.com");
  await page.goto("/dashboard");
  const box = page.getByRole("search", { name: "Quick search" }).getByRole("searchbox");
  for (const [what, id] of Object.entries(made.ids)) {
    await box.fill(id);
    await box.press("Enter");
    await expect(page, `${what}: ${id}`).toHaveURL(new RegExp(`/orders/xiaoxiao/${made.orderNo}$`));
    await expect(page.getByRole("heading", { name: made.orderNo })).toBeVisible();
  }
});

test("search: a search that finds nothing says so once", async ({ page }) => {
  await signIn(page, "agent@example.com");
  const box = page.getByRole("search", { name: "Quick search" }).getByRole("searchbox");
  await box.fill(`nothing-${randomUUID()}`);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/orders\?q=nothing-/);
  await expect(page.getByTestId("orders-total")).toHaveText("No order matches");
  await expect(page.getByTestId("orders-empty")).toBeVisible();
  await expect(page.getByText(/no orders? match/i)).toHaveCount(1);
});

test("times: the time in state and its age beside it say the same, from one clock and one rounding", async ({ page, db }) => {
  const made = await makeOrder(db);
  await signIn(page, "agent@example.com");
  await page.goto(`/orders/xiaoxiao/${made.orderNo}`);
  const line = page.locator("main p", { hasText: "Delivered for" });
  // 5 days 14 hours: "5 days" both times, never "6 days ago" beside "for 5 days".
  await expect(line).toContainText("Delivered for 5 days");
  await expect(line).toContainText("(5 days ago)");
  await expect(line).not.toContainText(/in \d+ second/);
});

test("money: one way to write an amount, on the list and on the order page alike (zh-CN)", async ({ browser, db }) => {
  const made = await makeOrder(db);
  await ensureChineseStaff(db);
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await signInAs(page, CHINESE_STAFF.agent);
  await page.goto(`/orders?q=${made.orderNo}`);
  const row = page.getByTestId(`order-row-xiaoxiao-${made.orderNo}`);
  await expect(row).toContainText("¥6.00");
  await expect(row).not.toContainText("CN¥");
  await page.goto(`/orders/xiaoxiao/${made.orderNo}`);
  await expect(page.locator("main")).toContainText("¥6.00");
  await expect(page.locator("main")).not.toContainText("CN¥");
  await context.close();
});

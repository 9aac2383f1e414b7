import { randomUUID } from "node:crypto";
import type pg from "pg";
import { dataStrings, englishWords } from "./english-words";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 16, item 5: a store's refund review waits in the deadline queue with its answer prefilled
// from the ledger; an agent opens it, confirms the player's consent and sends it — one outbox
// message and one audit fact with exactly what was sent. (The review is put in the queue the way the
// App Store notification route does; the route itself is covered by the vitest integration tests.)
// Issue 29, items 4 and 5: the e2e worker has no App Store Server API key, so the answer cannot go
// out — the review must say so, once, in either language; a Google Play review says what it is.

async function deliveredOrder(db: pg.Pool) {
  const order = (
    await db.query(`SELECT id, tenant_id, order_no, player_id FROM orders WHERE tenant_id = 'xiaoxiao' AND state = 'delivered' ORDER BY id LIMIT 1`)
  ).rows[0];
  expect(order).toBeDefined();
  return order as { id: string; tenant_id: string; order_no: string; player_id: string };
}

async function insertReview(db: pg.Pool, order: { id: string; tenant_id: string }, store: "appstore" | "googleplay", leftMinutes: number) {
  const transactionId = `e2e-${randomUUID().slice(0, 8)}`;
  const review = (
    await db.query(
      `INSERT INTO refund_reviews (tenant_id, store, request_id, transaction_id, order_id, reason, requested_at, deadline_at)
       VALUES ($1, $2, $3, $4, $5, 'UNINTENDED_PURCHASE', now() - interval '1 hour', now() + $6 * interval '1 minute') RETURNING id`,
      [order.tenant_id, store, randomUUID(), transactionId, order.id, leftMinutes],
    )
  ).rows[0] as { id: string };
  return { id: review.id, transactionId };
}

test("refund reviews: the answer table follows the agent's choices; an answer that cannot go out says not sent, why and what to do, in English and Chinese", async ({ page, db, browser }) => {
  const order = await deliveredOrder(db);
  const review = await insertReview(db, order, "appstore", 11 * 60);

  await signIn(page, "agent@example.com");
  await page.getByRole("link", { name: "Refund reviews" }).first().click();
  const row = page.getByTestId(`refund-review-${review.id}`);
  await expect(row).toContainText(order.order_no);
  await expect(row).toContainText(order.player_id);
  await expect(row).toContainText("left");
  await expect(row).toContainText("Open");

  await row.getByRole("link", { name: "App Store" }).click();
  // Every line of a delivered order was granted in full: the ledger says delivered.
  await expect(page.getByTestId("answer-deliveryStatus")).toContainText("Delivered and working");
  await expect(page.getByTestId("answer-platform")).toContainText("Apple platform");
  await expect(page.getByTestId("answer-customerConsented")).toContainText("false");
  await expect(page.getByTestId("answer-refundPreference")).toContainText("No preference");

  // The table says what will be sent as the agent chooses, before they send.
  await page.getByLabel("Refund preference").selectOption({ label: "Prefer to decline the refund" });
  await expect(page.getByTestId("answer-refundPreference")).toContainText("2");
  await expect(page.getByTestId("answer-refundPreference")).toContainText("Prefer to decline the refund");
  await page.getByLabel("The player agreed to share their consumption data").check();
  await expect(page.getByTestId("answer-customerConsented")).toContainText("true");
  await page.getByTestId("send-answer").click();

  // The worker's relay tries it, finds no key, and settles it: not sent — not "Sending" for ever.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("review-status")).toHaveText("Not sent", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "No answer reached the store" })).toBeVisible();
  await expect(page.getByTestId("review-problem")).toContainText("Not sent: this product has no App Store Server API key (APPLE_STORE_API_KEYS). Set it for the worker");
  await expect(main).toContainText("send the answer again below, before the deadline");
  await expect(page.getByTestId("review-answered-by")).toContainText("Queued by staff:agent@example.com");
  await expect(main).not.toContainText("Sending");
  await expect(main).not.toContainText("The answer sent");
  await expect(main).not.toContainText("Sent by");
  // It may be sent again once the key is there.
  await expect(page.getByTestId("send-answer-form")).toBeVisible();

  const saved = (await db.query(`SELECT status, answered_by, answer, last_error FROM refund_reviews WHERE id = $1`, [review.id])).rows[0];
  expect(saved).toMatchObject({
    status: "failed",
    answered_by: "staff:agent@example.com",
    answer: { customerConsented: true, deliveryStatus: 0, platform: 1, refundPreference: 2 },
    last_error: "App Store Server API key not configured for this tenant (APPLE_STORE_API_KEYS)",
  });
  const messages = await db.query(`SELECT payload, status, attempts FROM outbox_messages WHERE topic = 'store.refund-review-answer' AND payload ->> 'reviewId' = $1`, [String(review.id)]);
  expect(messages.rows).toHaveLength(1);
  expect(messages.rows[0]).toMatchObject({ status: "dead", attempts: 1 });
  expect(messages.rows[0].payload.body).toEqual(saved.answer);
  expect(messages.rows[0].payload.url).toMatch(new RegExp(`/inApps/v1/transactions/consumption/${review.transactionId}$`));
  const answered = await db.query(`SELECT actor, detail FROM audit_events WHERE action = 'refund-review.answered' AND (detail ->> 'reviewId')::bigint = $1`, [review.id]);
  expect(answered.rows).toEqual([{ actor: "staff:agent@example.com", detail: expect.objectContaining({ answer: saved.answer }) }]);
  const failed = await db.query(`SELECT actor FROM audit_events WHERE action = 'refund-review.failed' AND (detail ->> 'reviewId')::bigint = $1`, [review.id]);
  expect(failed.rows).toEqual([{ actor: "system:outbox-relay" }]);

  // The list says the same.
  await page.getByRole("link", { name: "Refund reviews" }).first().click();
  await expect(page.getByTestId(`refund-review-${review.id}`)).toContainText("Not sent");

  // And so does the Chinese page, with no English outside data.
  await ensureChineseStaff(db);
  const zh = await browser.newContext();
  const chinese = await zh.newPage();
  await signInAs(chinese, CHINESE_STAFF.agent);
  await chinese.goto(`/refund-reviews/${review.id}`);
  await expect(chinese.getByTestId("review-status")).toHaveText("未发送");
  await expect(chinese.getByTestId("review-problem")).toContainText("未发送：本产品未配置苹果应用商店服务器 API 密钥");
  await expect(chinese.getByRole("main")).not.toContainText("发送中");
  await expect(chinese.getByRole("main")).not.toContainText("已发送的答复");
  expect(await englishWords(chinese, await dataStrings(db))).toEqual([]);
  await zh.close();
});

test("refund reviews: a Google Play review says what Google's review is and that nothing is sent from here; the overview warns with 39 minutes left", async ({ page, db, browser }) => {
  const order = await deliveredOrder(db);
  const review = await insertReview(db, order, "googleplay", 39);

  await signIn(page, "agent@example.com");
  const card = page.getByTestId("overview-refund-reviews");
  await expect(card).toContainText("Refund reviews near their deadline");
  await expect(card).toContainText(/Soonest: 3[89] minutes left/);
  await expect(page.getByTestId("overview-refund-reviews-count")).not.toHaveText("0");

  await card.click();
  const row = page.getByTestId(`refund-review-${review.id}`);
  await expect(row).toContainText("Google Play");
  await expect(row).toContainText("Act in the Play Console");
  await expect(row.getByTestId("review-near-deadline")).toContainText(/3[89] minutes left/);

  await row.getByRole("link", { name: "Google Play" }).click();
  const google = page.getByTestId("review-google");
  await expect(google).toContainText("asks no questions an API can answer");
  await expect(google).toContainText("Google Play Console");
  await expect(page.getByTestId("review-status")).toHaveText("Open");
  // Not Apple's answer: no platform "Apple", no account token, no form that could not be sent.
  const main = page.getByRole("main");
  await expect(main).not.toContainText("Apple platform");
  await expect(main).not.toContainText("appAccountToken");
  await expect(page.getByTestId("send-answer-form")).toHaveCount(0);

  await ensureChineseStaff(db);
  const zh = await browser.newContext();
  const chinese = await zh.newPage();
  await signInAs(chinese, CHINESE_STAFF.agent);
  await expect(chinese.getByTestId("overview-refund-reviews")).toContainText("临近截止的退款审核");
  const data = await dataStrings(db);
  expect(await englishWords(chinese, data)).toEqual([]);
  await chinese.goto(`/refund-reviews/${review.id}`);
  await expect(chinese.getByTestId("review-google")).toContainText("谷歌应用商店自行审核");
  expect(await englishWords(chinese, data)).toEqual([]);
  await zh.close();
});

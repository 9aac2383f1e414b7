import { randomUUID } from "node:crypto";
import { expect, signIn, test } from "./fixtures";

// Issue 16, item 5: a store's refund review waits in the deadline queue with its answer prefilled
// from the ledger; an agent opens it, confirms the player's consent and sends it — one outbox
// message and one audit fact with exactly what was sent. (The review is put in the queue the way the
// App Store notification route does; the route itself is covered by the vitest integration tests.)

test("refund reviews: an agent opens the deadline queue, reads the answer prefilled from the ledger and sends it", async ({ page, db }) => {
  const order = (
    await db.query(`SELECT id, tenant_id, order_no, player_id FROM orders WHERE tenant_id = 'xiaoxiao' AND state = 'delivered' ORDER BY id LIMIT 1`)
  ).rows[0];
  expect(order).toBeDefined();
  const transactionId = `e2e-${randomUUID().slice(0, 8)}`;
  const review = (
    await db.query(
      `INSERT INTO refund_reviews (tenant_id, store, request_id, transaction_id, order_id, reason, requested_at, deadline_at)
       VALUES ($1, 'appstore', $2, $3, $4, 'UNINTENDED_PURCHASE', now() - interval '1 hour', now() + interval '11 hours') RETURNING id`,
      [order.tenant_id, randomUUID(), transactionId, order.id],
    )
  ).rows[0];

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

  await page.getByLabel("The player agreed to share their consumption data").check();
  await page.getByTestId("send-answer").click();
  await expect(page.getByTestId("review-status")).toContainText("Sending");
  await expect(page.getByTestId("answer-customerConsented")).toContainText("true");

  const saved = (await db.query(`SELECT status, answered_by, answer FROM refund_reviews WHERE id = $1`, [review.id])).rows[0];
  expect(saved).toMatchObject({ status: "sending", answered_by: "staff:agent@example.com", answer: { customerConsented: true, deliveryStatus: 0, platform: 1 } });
  const messages = await db.query(`SELECT payload FROM outbox_messages WHERE topic = 'store.refund-review-answer' AND payload ->> 'reviewId' = $1`, [String(review.id)]);
  expect(messages.rows).toHaveLength(1);
  expect(messages.rows[0].payload.body).toEqual(saved.answer);
  expect(messages.rows[0].payload.url).toMatch(new RegExp(`/inApps/v1/transactions/consumption/${transactionId}$`));
  const facts = await db.query(`SELECT actor, detail FROM audit_events WHERE action = 'refund-review.answered' AND (detail ->> 'reviewId')::bigint = $1`, [review.id]);
  expect(facts.rows).toEqual([{ actor: "staff:agent@example.com", detail: expect.objectContaining({ answer: saved.answer }) }]);
});

import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";
import { expect, signIn, test } from "./fixtures";

// Issue 13: ops work the seeded cases to the end — the money case through a refund the channel
// confirms (the test plays the channel through the API), the goods case through a compensation —
// and each resolution is in the ledger, the order's history and the audit log.

/** The channel's integration key for a product, as `npm run cli -- apikey create` makes it. */
async function channelKey(db: pg.Pool, tenantId: string): Promise<string> {
  const prefix = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  await db.query(`INSERT INTO api_keys (tenant_id, name, prefix, secret_hash, created_by) VALUES ($1, $2, $3, $4, 'e2e')`, [
    tenantId,
    `channel-${prefix}`,
    prefix,
    createHash("sha256").update(secret).digest("hex"),
  ]);
  return `oo_${prefix}_${secret}`;
}

const activeCases = async (db: pg.Pool) => (await db.query(`SELECT count(*)::int AS n FROM order_exceptions WHERE status IN ('open', 'in-progress')`)).rows[0].n as number;

test("cases: ops take a payment after close, refund it at the channel, and the channel's confirmation resolves it", async ({ page, db, request }) => {
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, e.amount, e.biz_key, o.order_no, o.id AS order_id FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.kind = 'payment-after-close' AND e.status = 'open' ORDER BY e.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  const before = await activeCases(db);

  await signIn(page, "ops@example.com");
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  const card = page.getByTestId("order-cases").getByTestId(`case-${target.id}`);
  await expect(card.getByTestId(`case-explanation-${target.id}`)).toContainText(`by ${target.biz_key}`);
  await expect(card.getByTestId(`case-explanation-${target.id}`)).toContainText("after the order closed");
  await card.getByTestId(`case-take-${target.id}`).click();
  await expect(card).toContainText("In progress");

  // Taken: it is in the queue's "mine", in plain words.
  await page.goto("/queues?cases=mine");
  await expect(page.getByTestId(`queue-case-${target.id}`)).toContainText("after the order closed");
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);

  await card.getByRole("button", { name: /^Refund / }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("paid after the timeout; the player bought again");
  await dialog.getByTestId("case-confirm-refund").click();
  // The dialog closes; the outcome is said above the cases. This product has no webhook: recorded, not sent (issue 29).
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("order-cases").getByTestId("case-notice")).toContainText("recorded, but not sent to the channel");

  const refund = (await db.query(`SELECT refund_id, amount::int AS amount, status, payment_txn FROM payment_refunds WHERE case_id = $1`, [target.id])).rows;
  expect(refund).toEqual([{ refund_id: expect.stringMatching(/^rf-/), amount: Number(target.amount), status: "requested", payment_txn: target.biz_key }]);

  // The channel confirms through the API (the same answer twice is one confirmation).
  const key = await channelKey(db, target.tenant_id);
  const confirm = () =>
    request.post(`/api/v1/refunds/${refund[0].refund_id}/events`, {
      headers: { authorization: `Bearer ${key}` },
      data: { event: "confirm", bizKey: "e2e-channel-receipt-1" },
    });
  expect(await (await confirm()).json()).toMatchObject({ result: "applied", refund: { status: "confirmed" } });
  expect(await (await confirm()).json()).toMatchObject({ result: "duplicate" });

  const resolved = (await db.query(`SELECT status, owner, resolution, resolved_by FROM order_exceptions WHERE id = $1`, [target.id])).rows[0];
  expect(resolved).toEqual({ status: "resolved", owner: "staff:ops@example.com", resolution: "refund", resolved_by: "system:cases" });
  expect(await activeCases(db)).toBe(before - 1);
  const facts = await db.query(`SELECT action, actor FROM audit_events WHERE order_id = $1 AND action LIKE ANY (ARRAY['case.%', 'refund.%']) ORDER BY id`, [target.order_id]);
  expect(facts.rows).toEqual([
    { action: "case.taken", actor: "staff:ops@example.com" },
    { action: "refund.requested", actor: "staff:ops@example.com" },
    { action: "case.resolving", actor: "staff:ops@example.com" },
    { action: "refund.confirmed", actor: expect.stringMatching(/^apikey:/) },
    { action: "case.resolved", actor: "system:cases" },
  ]);

  await page.reload();
  await expect(page.getByTestId("order-cases")).not.toContainText("open case");
});

test("cases: a delivery confirmed too early is compensated, and the case resolves itself", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, o.order_no, o.id AS order_id FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.kind = 'delivery-incomplete' AND e.status = 'open' AND o.state = 'delivering' ORDER BY e.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  const pending = (
    await db.query(
      `SELECT l.sku, (l.quantity - coalesce(sum(g.quantity) FILTER (WHERE g.quantity > 0), 0))::int AS pending
       FROM order_lines l LEFT JOIN grants g ON g.order_id = l.order_id AND g.sku = l.sku WHERE l.order_id = $1
       GROUP BY l.sku, l.quantity HAVING l.quantity > coalesce(sum(g.quantity) FILTER (WHERE g.quantity > 0), 0) ORDER BY l.sku`,
      [target.order_id],
    )
  ).rows;
  expect(pending.length).toBeGreaterThan(0);

  await signIn(page, "ops@example.com");
  await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
  const card = page.getByTestId("order-cases").getByTestId(`case-${target.id}`);
  await expect(card.getByTestId(`case-explanation-${target.id}`)).toContainText("Delivery was confirmed too early");
  await card.getByRole("button", { name: "Compensate" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("the game server lost the rest of the pack");
  await dialog.getByTestId("case-confirm-compensate").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("order-cases").getByTestId("case-notice")).toContainText("The case is resolved.");

  const grants = await db.query(`SELECT sku, quantity, reason FROM grants WHERE order_id = $1 AND actor = 'staff:ops@example.com' ORDER BY sku`, [target.order_id]);
  expect(grants.rows).toEqual(pending.map((p) => ({ sku: p.sku, quantity: p.pending, reason: "the game server lost the rest of the pack" })));
  const resolved = (await db.query(`SELECT status, resolution, resolved_by FROM order_exceptions WHERE id = $1`, [target.id])).rows[0];
  expect(resolved).toEqual({ status: "resolved", resolution: "compensate", resolved_by: "system:cases" });
  const facts = await db.query(`SELECT action FROM audit_events WHERE order_id = $1 AND action LIKE 'case.%' ORDER BY id`, [target.order_id]);
  expect(facts.rows.map((f) => f.action)).toEqual(["case.resolving", "case.resolved"]);
});

import AxeBuilder from "@axe-core/playwright";
import { MESSAGE_ID_HEADER } from "@/lib/jobs/signature";
import { startReceiver } from "@/lib/jobs/test-receiver";
import { dataStrings, englishWords } from "./english-words";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 27: "we never got the webhook". Ops find a dead delivery on the deliveries page, see what
// each attempt got back, send it again with a reason, and watch it arrive: the nodes' worker relays
// it to a receiver this spec runs, with the same message id.

test("deliveries: ops find a dead delivery, see its attempts, resend it and see it delivered", async ({ page, db }) => {
  const receiver = await startReceiver(() => 200);
  const tenant = "xiaoxiao";
  const before = (await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [tenant])).rows[0].webhook_url as string | null;
  try {
    await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, `${receiver.url}/hook`]);
    // A message as the relay leaves one whose endpoint refused every attempt.
    const { rows } = await db.query(
      `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error)
       VALUES ($1, 'order.transitioned', jsonb_build_object('tenantId', $1::text, 'orderNo', 'E2E-DEAD-1', 'event', 'pay', 'version', 1), 'dead', 15, 'HTTP 503: down for maintenance')
       RETURNING id::int AS id`,
      [tenant],
    );
    const id = rows[0].id as number;
    await db.query(
      `INSERT INTO outbox_attempts (tenant_id, message_id, url, attempted_at, status, error, latency_ms, response_body, request_headers)
       VALUES ($1, $2, 'https://game.example.com/hook', now() - interval '1 hour', 503, 'HTTP 503: down for maintenance', 42, 'down for maintenance', jsonb_build_object('x-orderops-message-id', $3::text))`,
      [tenant, id, String(id)],
    );

    await signIn(page, "ops@example.com");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhook deliveries" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhook deliveries" })).toBeVisible();
    const filters = page.getByRole("form", { name: "Filter deliveries" });
    await filters.getByLabel("Status").selectOption("dead");
    await filters.getByLabel("Product").selectOption(tenant);
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=dead/);
    const row = page.getByTestId(`delivery-${id}`);
    await expect(row.getByTestId("delivery-status")).toHaveText("Dead");
    await expect(row).toContainText("HTTP 503: down for maintenance");
    await row.getByRole("link", { name: `#${id}` }).click();

    await expect(page.getByRole("heading", { level: 1, name: `Message #${id}` })).toBeVisible();
    await expect(page.getByTestId("delivery-status").first()).toHaveText("Dead");
    const attempt = page.getByTestId("delivery-attempt");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("HTTP 503");
    await expect(attempt).toContainText("down for maintenance");
    await expect(page.getByTestId("delivery-body")).toContainText('"orderNo":"E2E-DEAD-1"');

    const form = page.getByTestId("resend-form");
    await form.getByLabel("Reason").fill("game server says it never got it");
    await form.getByTestId("resend").click();
    await expect(form.getByRole("status")).toHaveText("Queued to be sent again.");
    // The page reads the message again while the relay has it, and shows it delivered.
    await expect(page.getByTestId("delivery-status").first()).toHaveText("Delivered", { timeout: 30_000 });
    await expect(page.getByTestId("delivery-attempt")).toHaveCount(2);
    await expect(page.getByTestId("delivery-headers")).toContainText(String(id));
    await expect(page.getByTestId("delivery-resends")).toContainText("game server says it never got it");

    const got = receiver.requests.filter((r) => r.headers[MESSAGE_ID_HEADER] === String(id));
    expect(got).toHaveLength(1);
    const { rows: after } = await db.query(`SELECT status, attempts FROM outbox_messages WHERE id = $1`, [id]);
    expect(after).toEqual([{ status: "delivered", attempts: 1 }]);
    const { rows: audited } = await db.query(`SELECT actor, detail ->> 'reason' AS reason FROM audit_events WHERE action = 'webhook.resent' AND target = $1`, [`outbox:${id}`]);
    expect(audited).toEqual([{ actor: "staff:ops@example.com", reason: "game server says it never got it" }]);

    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  } finally {
    // Later specs count on this product's webhook being what it was.
    await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, before]);
    await receiver.close();
  }
});

test("deliveries: ops resend every dead delivery of a product since a time in bulk, previewed first, and see them delivered", async ({ page, db }) => {
  const receiver = await startReceiver(() => 200);
  const tenant = "xiaoxiao";
  const before = (await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [tenant])).rows[0].webhook_url as string | null;
  try {
    await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, `${receiver.url}/hook`]);
    // "Since" a second before these three: older dead messages of the seed stay out.
    const since = (await db.query(`SELECT to_char((now() - interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at`)).rows[0].at as string;
    const { rows } = await db.query(
      `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error, created_at)
       SELECT $1, 'order.transitioned', jsonb_build_object('tenantId', $1::text, 'orderNo', 'E2E-BULK-' || g, 'event', 'pay', 'version', 1), 'dead', 15, 'HTTP 502: bad gateway', now() + g * interval '1 millisecond'
       FROM generate_series(1, 3) g
       RETURNING id::int AS id`,
      [tenant],
    );
    const ids = rows.map((r) => r.id as number);

    await signIn(page, "ops@example.com");
    // Dead, without a product or a time: how to get to the bulk resend.
    await page.goto("/deliveries?status=dead");
    await expect(page.getByTestId("bulk-resend-hint")).toBeVisible();
    await page.goto(`/deliveries?tenant=${tenant}&status=dead&from=${since}`);
    const panel = page.getByTestId("bulk-resend");
    await panel.getByTestId("bulk-resend-preview").click();
    await expect(panel.getByTestId("bulk-resend-count")).toHaveText(`3 dead messages of ${tenant} since ${since} (UTC) will be sent again.`);
    await expect(panel.getByTestId("bulk-resend-sample").locator("tbody tr")).toHaveCount(3);
    // Nothing is sent by looking.
    expect((await db.query(`SELECT count(*)::int AS n FROM outbox_resends WHERE message_id = ANY($1::bigint[])`, [ids])).rows[0].n).toBe(0);

    await panel.getByLabel("Reason (kept in the audit trail)").fill("receiver was down overnight");
    // A double click: one batch.
    await panel.getByTestId("bulk-resend-start").dblclick();
    await expect(panel.getByTestId("bulk-resend-done")).toHaveText("Done: 3 queued again, 0 skipped (already on their way), 0 refused, 0 failed.");
    await expect(panel.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "3");
    // Queued again, they are no longer dead: the list (filtered to dead) no longer has them.
    for (const id of ids) await expect(page.getByTestId(`delivery-${id}`)).toHaveCount(0);
    await expect.poll(async () => (await db.query(`SELECT count(*)::int AS n FROM outbox_messages WHERE id = ANY($1::bigint[]) AND status = 'delivered'`, [ids])).rows[0].n, { timeout: 30_000 }).toBe(3);
    for (const id of ids) expect(receiver.requests.filter((r) => r.headers[MESSAGE_ID_HEADER] === String(id))).toHaveLength(1);
    const { rows: batches } = await db.query(`SELECT total FROM bulk_batches WHERE kind = 'resend' AND tenant_id = $1 AND reason = 'receiver was down overnight'`, [tenant]);
    expect(batches).toEqual([{ total: 3 }]);
    const { rows: audited } = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'webhook.resent' AND target = ANY($1::text[])`, [ids.map((id) => `outbox:${id}`)]);
    expect(audited).toEqual([{ n: 3 }]);

    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  } finally {
    await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, before]);
    await receiver.close();
  }
});

test("deliveries: in Chinese, the list and a message with its resend form have no English outside data", async ({ browser, db }) => {
  await ensureChineseStaff(db);
  const { rows } = await db.query(`SELECT id, tenant_id FROM outbox_messages WHERE tenant_id IN ('xiaoxiao', 'fangzhou') AND status = 'dead' ORDER BY id DESC LIMIT 1`);
  const dead: { id: string; tenant_id: string } =
    rows[0] ??
    (
      await db.query(
        `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error) VALUES ('fangzhou', 'order.transitioned', '{"orderNo":"E2E-ZH"}', 'dead', 15, 'HTTP 500') RETURNING id, tenant_id`,
      )
    ).rows[0];
  const id = dead.id;
  const context = await browser.newContext({ locale: "zh-CN" });
  try {
    const page = await context.newPage();
    await signInAs(page, CHINESE_STAFF.manager);
    const data = await dataStrings(db);
    await page.goto("/deliveries");
    await expect(page.getByRole("heading", { level: 1, name: "回调投递" })).toBeVisible();
    expect(await englishWords(page, data)).toEqual([]);
    // The bulk resend panel, previewed (the hint first, then the count and the sample).
    await page.goto("/deliveries?status=dead");
    await expect(page.getByTestId("bulk-resend-hint")).toBeVisible();
    expect(await englishWords(page, data)).toEqual([]);
    await page.goto(`/deliveries?status=dead&tenant=${dead.tenant_id}&from=2000-01-01`);
    await page.getByTestId("bulk-resend-preview").click();
    await expect(page.getByTestId("bulk-resend-count")).toBeVisible();
    expect(await englishWords(page, data)).toEqual([]);
    await page.goto(`/deliveries/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: `消息 #${id}` })).toBeVisible();
    await expect(page.getByTestId("resend-form")).toBeVisible();
    expect(await englishWords(page, data)).toEqual([]);
  } finally {
    await context.close();
  }
});

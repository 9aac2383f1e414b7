import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { dataStrings, englishWords } from "./english-words";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 29, item 2's missing piece: a refund not sent because the product has no webhook can only be
// resent once a webhook is configured — so the settings page sets it, and the case links there.

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

// Nothing listens on port 9 of this machine: the relay's post fails at once and is retried, which is
// all this test needs (what the channel then answers is the relay's own tests' business).
const WEBHOOK = "http://127.0.0.1:9/orderops/webhook";

test("webhook settings: a manager sets the product's webhook from the case that needed it, and the refund can then be resent", async ({ page, db }) => {
  // A payment case on a product without a webhook, with no refund yet (e2e/case-work.spec.ts takes the newest).
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, o.order_no FROM order_exceptions e JOIN orders o ON o.id = e.order_id JOIN tenant_settings s ON s.tenant_id = e.tenant_id
     WHERE e.kind IN ('second-payment', 'payment-after-refund') AND e.status = 'open' AND e.owner IS NULL AND s.webhook_url IS NULL
       AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.case_id = e.id) ORDER BY e.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  try {
    await signIn(page, "manager@example.com");
    await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
    const card = page.getByTestId("order-cases").getByTestId(`case-${target.id}`);
    await card.getByRole("button", { name: /^Refund / }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/Reason/).fill("paid twice; the player asked for the second payment back");
    await dialog.getByTestId("case-confirm-refund").click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId(`case-refund-needs-webhook-${target.id}`)).toHaveText("Resending needs a webhook: this product has none configured yet.");

    // The case says where to configure it, for a manager who may.
    await card.getByTestId(`case-refund-configure-webhook-${target.id}`).click();
    await expect(page).toHaveURL(new RegExp(`/settings#webhook-${target.tenant_id}$`));
    const section = page.locator(`#webhook-${target.tenant_id}`);
    await expect(section.getByRole("heading", { name: "Webhook" })).toBeVisible();
    await expect(section).toContainText("are signed with this product's signing secret and posted to this address");
    const form = page.getByTestId(`webhook-form-${target.tenant_id}`);
    await expect(form.getByTestId(`webhook-current-${target.tenant_id}`)).toHaveText("Now: no webhook configured.");

    // A bad address is refused on the field, saying what is expected.
    const field = form.getByLabel("Webhook URL");
    await field.fill("game.example.com/orderops/webhook");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toContainText("Enter a full address starting with https://, such as https://game.example.com/orderops/webhook");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    expect((await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [target.tenant_id])).rows[0].webhook_url).toBeNull();

    await field.fill(WEBHOOK);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Saved.");
    await expect(form.getByTestId(`webhook-current-${target.tenant_id}`)).toHaveText(`Now: ${WEBHOOK}`);
    expect((await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [target.tenant_id])).rows[0].webhook_url).toBe(WEBHOOK);
    const { rows: audited } = await db.query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id DESC LIMIT 1`, [
      `tenant:${target.tenant_id}`,
    ]);
    expect(audited).toEqual([{ actor: "staff:manager@example.com", detail: { field: "webhook_url", before: null, after: WEBHOOK } }]);
    expect(await seriousViolations(page)).toEqual([]);

    // Back on the case: nothing waits for a webhook now, and the refund goes out again.
    await page.goto(`/orders/${target.tenant_id}/${target.order_no}`);
    await expect(card.getByTestId(`case-refund-needs-webhook-${target.id}`)).toHaveCount(0);
    await expect(card.getByTestId(`case-refund-configure-webhook-${target.id}`)).toHaveCount(0);
    await card.getByTestId(`case-refund-resend-${target.id}`).click();
    await expect(page.getByTestId("order-cases").getByTestId("case-notice")).toContainText("is on its way to the channel again.");
    const { rows: queued } = await db.query(
      `SELECT m.status FROM outbox_messages m JOIN payment_refunds r ON m.payload ->> 'refundId' = r.refund_id
       WHERE r.case_id = $1 AND m.topic = 'refund.requested' ORDER BY m.id`,
      [target.id],
    );
    // The first request, noted "no webhook configured", and the resent one.
    expect(queued).toHaveLength(2);
  } finally {
    // Later specs count on this product having no webhook.
    await db.query(`UPDATE tenant_settings SET webhook_url = NULL WHERE tenant_id = $1`, [target.tenant_id]);
  }
});

test("webhook settings: in Chinese, the section, its current value and a refusal have no English outside data", async ({ browser, db }) => {
  await ensureChineseStaff(db);
  const tenant = (await db.query(`SELECT tenant_id FROM tenant_settings ORDER BY tenant_id LIMIT 1`)).rows[0].tenant_id as string;
  const before = (await db.query(`SELECT webhook_url FROM tenant_settings WHERE tenant_id = $1`, [tenant])).rows[0].webhook_url as string | null;
  await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, WEBHOOK]);
  const context = await browser.newContext({ locale: "zh-CN" });
  try {
    const page = await context.newPage();
    await signInAs(page, CHINESE_STAFF.manager);
    await page.goto(`/settings#webhook-${tenant}`);
    const form = page.getByTestId(`webhook-form-${tenant}`);
    await expect(page.locator(`#webhook-${tenant}`).getByRole("heading", { name: "回调地址" })).toBeVisible();
    await expect(form.getByTestId(`webhook-current-${tenant}`)).toHaveText(`当前： ${WEBHOOK}`);
    await form.locator("input[name=webhookUrl]").fill("ftp://game.example.com/webhook");
    await form.locator("button[type=submit]").click();
    await expect(form).toContainText("请输入完整的加密网址");
    const data = await dataStrings(db);
    expect(await englishWords(page, data)).toEqual([]);
  } finally {
    await context.close();
    await db.query(`UPDATE tenant_settings SET webhook_url = $2 WHERE tenant_id = $1`, [tenant, before]);
  }
});

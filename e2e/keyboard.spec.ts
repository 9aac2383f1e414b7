import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { dataStrings, englishWords } from "./english-words";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 26, item 2: the lists are worked with j/k and Enter, "/" goes to the search, the order page
// has e (its first legal event) and n (its note box), "?" lists the page's keys; no key fires while
// typing. The walks below use the keyboard only: no click, no hover, nothing but key presses once
// the page is open.

/** What has the focus now: enough to say where a keyboard user is. */
async function focused(page: Page): Promise<{ tag: string; text: string; testId: string | null; row: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? "",
      text: el?.textContent?.trim() ?? "",
      testId: el?.getAttribute("data-testid") ?? null,
      row: el?.closest("tr")?.getAttribute("data-testid") ?? null,
    };
  });
}

/** Presses Tab until the focused element matches, as a keyboard user would reach it. */
async function tabTo(page: Page, matches: (el: Awaited<ReturnType<typeof focused>>) => boolean, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (matches(await focused(page))) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("never reached by Tab");
}

/** The rows marked as the selection, on the whole page. */
const selected = (page: Page): Locator => page.locator('tbody > tr[aria-current="true"]');

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

test("keyboard: a whole case worked with the keyboard only — j/k to it on the queue, Enter, take, resolve", async ({ page, db }) => {
  test.setTimeout(240_000);
  await signIn(page, "ops@example.com");
  await page.goto("/queues?cases=unassigned");
  const cases = page.getByTestId("queue-cases");
  // A first read on a loaded machine can take longer than an assertion's usual 5 s.
  await expect(cases).toBeVisible({ timeout: 20_000 });

  // The case: the first unassigned one whose order is still being delivered, which ops can compensate.
  const shown = await cases.locator("tbody > tr").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-testid")!.replace("queue-case-", ""))));
  const { rows } = await db.query(
    `SELECT e.id, e.tenant_id, o.order_no, o.id AS order_id FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.id = ANY($1::bigint[]) AND e.kind = 'delivery-incomplete' AND e.status = 'open' AND e.owner IS NULL AND o.state = 'delivering'`,
    [shown],
  );
  const target = rows.sort((a, b) => shown.indexOf(Number(a.id)) - shown.indexOf(Number(b.id)))[0];
  expect(target, "an open delivery case on the queue").toBeDefined();
  const row = page.getByTestId(`queue-case-${target.id}`);

  // Typing in the search box is typing: j, k and ? are characters there, nothing moves or opens.
  await page.locator("body").press("/");
  const search = page.locator("#header-search");
  await expect(search).toBeFocused();
  await page.keyboard.type("jk?e");
  await expect(search).toHaveValue("jk?e");
  await expect(selected(page)).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.keyboard.press("Tab");
  await expect(search).not.toBeFocused();

  // j walks the rows down the page (the stuck orders' table comes first, then the cases), k back up.
  await page.keyboard.press("j");
  await expect(selected(page)).toHaveCount(1);
  const first = await focused(page);
  expect(first.row).not.toBeNull();
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press("j");
    await expect(selected(page)).toHaveCount(1);
    reached = (await row.getAttribute("aria-current")) === "true";
  }
  expect(reached, `j reaches case ${target.id}`).toBe(true);
  // The selection has the focus (its order's link), so a screen reader says where it is; k and j move it.
  expect((await focused(page)).row).toBe(`queue-case-${target.id}`);
  await page.keyboard.press("k");
  await expect(row).not.toHaveAttribute("aria-current", "true");
  await page.keyboard.press("j");
  await expect(row).toHaveAttribute("aria-current", "true");
  await expect(row).toBeInViewport();

  // Enter opens it: the order the case is about, with the case on it.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/orders/${target.tenant_id}/${encodeURIComponent(target.order_no)}$`), { timeout: 20_000 });
  const card = page.getByTestId("order-cases").getByTestId(`case-${target.id}`);
  await expect(card).toBeVisible({ timeout: 20_000 });

  // Take it: Tab to its button, Enter.
  await tabTo(page, (el) => el.testId === `case-take-${target.id}`);
  await page.keyboard.press("Enter");
  await expect(card.getByTestId(`case-take-${target.id}`)).toHaveCount(0);
  await expect.poll(async () => (await db.query(`SELECT owner FROM order_exceptions WHERE id = $1`, [target.id])).rows[0].owner).toBe("staff:ops@example.com");

  // Resolve it: Tab to Compensate, Space opens the form, the reason is typed, Enter on Confirm.
  await tabTo(page, (el) => el.tag === "button" && el.text === "Compensate");
  await page.keyboard.press("Space");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await tabTo(page, (el) => el.tag === "textarea", 10);
  // In the form the letters are the reason's, not shortcuts.
  await page.keyboard.type("keyboard walk: the rest of the pack never arrived");
  await expect(dialog.getByRole("textbox", { name: /Reason/ })).toHaveValue("keyboard walk: the rest of the pack never arrived");
  await tabTo(page, (el) => el.testId === "case-confirm-compensate", 10);
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("order-cases").getByTestId("case-notice")).toContainText("The case is resolved.");

  const resolved = (await db.query(`SELECT status, owner, resolution FROM order_exceptions WHERE id = $1`, [target.id])).rows[0];
  expect(resolved).toEqual({ status: "resolved", owner: "staff:ops@example.com", resolution: "compensate" });
  const facts = await db.query(`SELECT action, actor FROM audit_events WHERE order_id = $1 AND action LIKE 'case.%' ORDER BY id`, [target.order_id]);
  expect(facts.rows).toEqual([
    { action: "case.taken", actor: "staff:ops@example.com" },
    { action: "case.resolving", actor: "staff:ops@example.com" },
    { action: "case.resolved", actor: "system:cases" },
  ]);
});

test("keyboard: on the order page n goes to the note box and e opens the first legal event's form; typing a note fires nothing", async ({ page, db }) => {
  test.setTimeout(240_000);
  const { rows } = await db.query(`SELECT tenant_id, order_no FROM orders WHERE state = 'paid' ORDER BY id LIMIT 1`);
  expect(rows[0]).toBeDefined();
  await signIn(page, "manager@example.com");
  await page.goto(`/orders/${rows[0].tenant_id}/${encodeURIComponent(rows[0].order_no)}`);
  const composer = page.getByTestId("note-composer").locator("textarea");
  await expect(composer).toBeVisible({ timeout: 20_000 });
  // A screen reader is told the key where it leads.
  await expect(composer).toHaveAttribute("aria-keyshortcuts", "n");

  await page.locator("body").press("n");
  await expect(composer).toBeFocused();
  await expect(composer).toBeInViewport();
  // Every key of the layer, typed into the note: all of them text, none a shortcut.
  await page.keyboard.type("e n j k / ?");
  await expect(composer).toHaveValue("e n j k / ?");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Out of the field (Shift+Tab to the page), e is the first event the viewer may trigger now.
  await page.keyboard.press("Shift+Tab");
  await expect(composer).not.toBeFocused();
  const firstEvent = page.locator('section[aria-labelledby="order-heading"] button[aria-haspopup="dialog"]').first();
  const eventName = (await firstEvent.innerText()).split("\n")[0]!.trim();
  await page.keyboard.press("e");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading").first()).toContainText(eventName.replace(/\s+\S+$/, ""));
  // Under an open dialog the page's keys are still: n does not take the focus out of the form.
  await page.keyboard.press("n");
  await expect(composer).not.toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  // The overlay lists the order page's keys (no list here), the first event's with the words for e.
  await page.locator("body").press("?");
  const overlay = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(overlay.locator("[data-shortcut]")).toHaveText([
    "eOpen the form of the first event you can trigger now",
    "nWrite a note on this order",
    "/Go to the search box",
    "?Show these shortcuts",
  ]);
  await page.keyboard.press("Escape");
  await expect(overlay).toHaveCount(0);
  // With Ctrl held, e is the browser's.
  await page.locator("body").press("Control+e");
  await expect(dialog).toHaveCount(0);
  // The note typed before is still there.
  await expect(composer).toHaveValue("e n j k / ?");
});

test("keyboard: ? lists the keys of the page it is pressed on, in English and in Chinese; Escape closes it", async ({ page, browser, db }) => {
  test.setTimeout(240_000);
  await signIn(page, "manager@example.com");

  // A list: its keys and the console's, not the order page's.
  await page.goto("/orders");
  await expect(page.getByTestId("orders-table")).toBeVisible({ timeout: 20_000 });
  await page.locator("body").press("?");
  const overlay = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(overlay).toBeVisible();
  await expect(overlay.locator("[data-shortcut]")).toHaveText([
    "jSelect the next row",
    "kSelect the previous row",
    "EnterOpen the selected row",
    "/Go to the search box",
    "?Show these shortcuts",
  ]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(overlay).toHaveCount(0);

  // j and Enter on the orders list open the first order.
  await page.keyboard.press("j");
  const firstRow = page.getByTestId("orders-table").locator("tbody > tr").first();
  await expect(firstRow).toHaveAttribute("aria-current", "true");
  const orderNo = (await firstRow.locator("a[href]").first().innerText()).trim();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/orders/[^/]+/${encodeURIComponent(orderNo)}$`), { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(orderNo, { timeout: 20_000 });

  // The audit explorer is a list too.
  await page.goto("/audit");
  const audit = page.getByTestId("audit-table").locator("tbody > tr");
  await expect(audit.first()).toBeVisible({ timeout: 20_000 });
  await page.locator("body").press("j");
  await page.keyboard.press("j");
  await expect(audit.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(selected(page)).toHaveCount(1);
  // The selection's marking (aria-current on the row, its colour) keeps axe clean.
  expect(await seriousViolations(page)).toEqual([]);

  // So are the refund reviews (the demo has none: one from Google Play, taken out again afterwards,
  // whose answer nothing here sends); Enter opens the review.
  const order = (await db.query(`SELECT id, tenant_id FROM orders WHERE state = 'delivered' ORDER BY id LIMIT 1`)).rows[0];
  const review = (
    await db.query(
      `INSERT INTO refund_reviews (tenant_id, store, request_id, transaction_id, order_id, reason, requested_at, deadline_at)
       VALUES ($1, 'googleplay', $2, $3, $4, 'UNINTENDED_PURCHASE', now() - interval '1 hour', now() + interval '3 days') RETURNING id`,
      [order.tenant_id, randomUUID(), `e2e-keys-${randomUUID().slice(0, 8)}`, order.id],
    )
  ).rows[0] as { id: string };
  try {
    await page.goto("/refund-reviews");
    await expect(page.getByTestId(`refund-review-${review.id}`)).toBeVisible({ timeout: 20_000 });
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("j");
      reached = (await page.getByTestId(`refund-review-${review.id}`).getAttribute("aria-current")) === "true";
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/refund-reviews/${review.id}$`), { timeout: 20_000 });
  } finally {
    await db.query(`DELETE FROM refund_reviews WHERE id = $1`, [review.id]);
  }

  // And the webhook deliveries: j selects the newest message, Enter opens its page.
  await page.goto("/deliveries");
  const message = page.getByTestId("deliveries").locator("tbody > tr").first();
  await expect(message).toBeVisible({ timeout: 20_000 });
  await page.locator("body").press("j");
  await expect(message).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/deliveries\/\d+$/, { timeout: 20_000 });

  // In Chinese: every word of the overlay is Chinese.
  await ensureChineseStaff(db);
  const data = await dataStrings(db);
  const zh = await browser.newContext({ locale: "zh-CN" });
  const chinese = await zh.newPage();
  await signInAs(chinese, CHINESE_STAFF.manager);
  await chinese.goto("/queues");
  await expect(chinese.getByTestId("queue-cases")).toBeVisible({ timeout: 20_000 });
  // Whoever does not know the key finds the overlay in the header.
  await chinese.getByRole("button", { name: "键盘快捷键" }).click();
  const zhOverlay = chinese.getByRole("dialog", { name: "键盘快捷键" });
  await expect(zhOverlay).toBeVisible();
  await expect(zhOverlay.locator("[data-shortcut]")).toHaveText(["j选中下一行", "k选中上一行", "Enter打开选中的行", "/跳到搜索框", "?显示这些快捷键"]);
  expect(await englishWords(chinese, data)).toEqual([]);
  await chinese.keyboard.press("Escape");
  await expect(zhOverlay).toHaveCount(0);
  await zh.close();
});

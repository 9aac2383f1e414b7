import { placeOrder } from "./channel";
import { expect, signIn, test } from "./fixtures";
import { CHINESE_STAFF, ensureChineseStaff, signInAs } from "./pages";

// Issue 29 (items 7, 8, 14, 15, 17 and the polish list): what a person reads in an order's timeline,
// the audit explorer's filters and rows, and the settings page's forms.

test("timeline: a dismissed case reads as dismissed, never resolved, in words in both languages", async ({ browser, page, db }) => {
  // The newest open money case of an order nothing moves any more (the cases spec works the oldest
  // payment-after-close and delivery cases; the delivery coordinator keeps working delivery ones).
  const { rows } = await db.query(
    `SELECT e.id, o.tenant_id, o.order_no FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.kind IN ('second-payment', 'payment-after-refund') AND e.status = 'open' AND o.state IN ('delivered', 'refunded', 'closed')
     ORDER BY e.id DESC LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();

  await signIn(page, "manager@example.com");
  const orderPath = `/orders/${target.tenant_id}/${encodeURIComponent(target.order_no)}`;
  await page.goto(orderPath);
  await page.getByTestId(`case-actions-${target.id}`).getByRole("button", { name: "Dismiss" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("the game granted the gems by hand");
  await dialog.getByTestId("case-confirm-dismiss").click();
  // The outcome is said in the dialog, or beside the case once the dialog has closed.
  await expect(page.getByRole("status").filter({ hasText: /^Dismissed\.$/ }).first()).toBeVisible();
  await expect.poll(async () => (await db.query(`SELECT status FROM order_exceptions WHERE id = $1`, [target.id])).rows[0].status).toBe("dismissed");

  const closed = async (status: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM order_exceptions e JOIN orders o ON o.id = e.order_id WHERE o.tenant_id = $1 AND o.order_no = $2 AND e.status = $3`, [target.tenant_id, target.order_no, status])).rows[0].n;
  await page.goto(orderPath);
  const timeline = page.getByTestId("timeline");
  const dismissed = timeline.locator('li[data-kind="exception"]', { hasText: "Case dismissed:" });
  await expect(dismissed).toHaveCount(await closed("dismissed"));
  await expect(dismissed.filter({ hasText: "“the game granted the gems by hand”" })).toHaveCount(1);
  await expect(timeline.locator('li[data-kind="exception"]', { hasText: "Case resolved:" })).toHaveCount(await closed("resolved"));
  await expect(timeline).not.toContainText("Exception");
  // The facts of cases are words: no headline is a bare action name (the names are in the details, as data).
  const headlines = await timeline.locator('li[data-kind="action"] > div:first-of-type').allInnerTexts();
  expect(headlines.filter((h) => /^(case|refund|take-back|refund-review|store)\.[a-z-]+/.test(h.trim()))).toEqual([]);

  await ensureChineseStaff(db);
  const context = await browser.newContext();
  const chinese = await context.newPage();
  await signInAs(chinese, CHINESE_STAFF.manager);
  await chinese.goto(orderPath);
  const zhTimeline = chinese.getByTestId("timeline");
  await expect(zhTimeline.locator('li[data-kind="exception"]', { hasText: "工单已驳回：" })).toHaveCount(1);
  await expect(zhTimeline).not.toContainText("异常");
  await context.close();
});

test("timeline: internal notes are numbered per order", async ({ page, db, request }) => {
  // Unpaid: no job moves it while the test types.
  const order = await placeOrder(db, request, { tenantId: "xiaoxiao", amount: 6_00, paid: false });
  await signIn(page, "agent@example.com");
  await page.goto(`/orders/${order.tenantId}/${order.orderNo}`);
  await page.getByLabel("Add an internal note").fill("Player called about the gems");
  await page.getByRole("button", { name: "Add note" }).click();
  const note = page.getByTestId("timeline").locator('li[data-kind="note"]').first();
  await expect(note).toContainText("Internal note #1");
  await note.getByRole("button", { name: "Correct this note" }).click();
  await expect(page.getByLabel("Correct note #1: the correction is a new note, the old one stays as it was")).toBeVisible();
});

test("audit: the filters offer cases, channel refunds, take-backs and refund reviews, and a case's row reads in words", async ({ page, db }) => {
  // The first test of this file dismissed a case: its fact (resolution: null) is the row to read.
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'case.dismissed'`);
  expect(rows[0].n).toBeGreaterThan(0);
  await signIn(page, "manager@example.com");
  await page.goto("/audit");
  const kind = page.getByLabel("Kind");
  for (const label of ["Cases", "Channel refunds", "Take-backs", "Refund reviews", "Store notifications"]) {
    await expect(kind.locator("option", { hasText: label })).toHaveCount(1);
  }
  const event = page.getByLabel("Event or action");
  await expect(event.locator('option[value="case.dismissed"]')).toHaveCount(1);
  await expect(event.locator('option[value="refund-review.answered"]')).toHaveCount(1);
  await kind.selectOption("case");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/kind=case/);
  const table = page.getByTestId("audit-table");
  await expect(table.locator("tbody tr").first()).toBeVisible();
  await expect(table).not.toContainText("previousOwner");
  await expect(table).not.toContainText(": null");
  const kinds = await table.locator("tbody tr").evaluateAll((trs) => [...new Set(trs.map((tr) => tr.getAttribute("data-kind")))]);
  expect(kinds).toEqual(["case"]);
});

test("settings: every rule fits its select, the outcome shows by the Save button, and a bad revoke address says what is wanted", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, "manager@example.com");
  await page.goto("/settings");
  const form = page.getByTestId("take-back-form-xiaoxiao");
  // No select cuts off the name of its chosen option. Measured until the layout has settled (one CI
  // run read every select as clipped once, right after load, and never again).
  const clipped = () => page.locator("select").evaluateAll((selects) =>
    (selects as HTMLSelectElement[]).flatMap((select) => {
      const style = getComputedStyle(select);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.text ?? "";
      const needed = context.measureText(text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 16;
      return needed > select.clientWidth ? [`${select.name}: ${text}`] : [];
    }),
  );
  await expect.poll(clipped, { timeout: 10_000 }).toEqual([]);

  // Nobody sends a reverse-refund from the console: no canned reasons for it.
  await expect(page.getByTestId("canned-reasons-form-xiaoxiao").getByLabel(/Reverse refund/)).toHaveCount(0);

  await form.getByLabel("Revoke endpoint URL").fill("ftp://game.example.com/revoke");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText(/starting with https:\/\//)).toBeVisible();
  await expect(form.getByRole("alert").last()).toBeInViewport();
});

test("console: the favicon is served to anyone, pages name one the browser keeps, and the frame has one main landmark after a skip link", async ({ page, request }) => {
  const icon = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
  await signIn(page, "manager@example.com");
  await page.goto("/approvals");
  // The page's icon is a build asset cached for good: a page load does not ask for an icon again.
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(href).toMatch(/^\/_next\/static\/media\//);
  const named = await request.get(href!);
  expect(named.headers()["content-type"]).toMatch(/^image\//);
  expect(named.headers()["cache-control"]).toContain("immutable");
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.locator("a").first()).toHaveText("Skip to content");
});

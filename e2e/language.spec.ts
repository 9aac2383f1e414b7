import { dataStrings, englishWords } from "./english-words";
import { expect, test } from "./fixtures";
import { CHINESE_STAFF, consolePages, ensureChineseStaff, signInAs, type Who } from "./pages";

test("language: sign-in follows the browser's language before anyone has chosen one", async ({ browser, db }) => {
  const data = await dataStrings(db);
  const zh = await browser.newContext({ locale: "zh-CN" });
  const page = await zh.newPage();
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("lang", /^zh/);
  await expect(page.locator("form button[type=submit]")).toHaveText("登录");
  expect(await englishWords(page, data)).toEqual([]);
  // A refused sign-in says why in the same language.
  await page.locator("#email").fill("nobody@example.com");
  await page.locator("#password").fill("wrong password");
  await page.locator("form button[type=submit]").click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(await englishWords(page, data)).toEqual([]);
  await zh.close();

  const en = await browser.newContext({ locale: "en-US" });
  const english = await en.newPage();
  await english.goto("/sign-in");
  await expect(english.locator("form button[type=submit]")).toHaveText("Sign in");
  await en.close();
});

test("language: every page in zh-CN has no English outside data", async ({ browser, db }) => {
  test.setTimeout(240_000);
  await ensureChineseStaff(db);
  const data = await dataStrings(db);
  const pages = await consolePages(db);
  const found: Record<string, string[]> = {};
  for (const who of ["manager", "admin", "agent"] as const satisfies readonly Who[]) {
    const context = await browser.newContext({ locale: "zh-CN" });
    const page = await context.newPage();
    await signInAs(page, CHINESE_STAFF[who]);
    for (const p of pages.filter((p) => p.who === who)) {
      const response = await page.goto(p.path);
      expect(response?.status(), p.path).toBe(p.status ?? 200);
      await expect(page.locator("html")).toHaveAttribute("lang", /^zh/);
      await expect(page.locator("h1").first()).toBeVisible();
      // The browser's own pass: times in the viewer's zone, live counts.
      await page.waitForLoadState("networkidle");
      const words = await englishWords(page, data);
      if (words.length > 0) found[p.name] = words;
    }
    await context.close();
  }
  expect(found).toEqual({});
});

test("language: the order page's forms and their refusals are in Chinese too", async ({ browser, db }) => {
  await ensureChineseStaff(db);
  const data = await dataStrings(db);
  const { rows } = await db.query(`SELECT tenant_id, order_no FROM orders WHERE state = 'created' ORDER BY id DESC LIMIT 1`);
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await signInAs(page, CHINESE_STAFF.manager);
  await page.goto(`/orders/${rows[0].tenant_id}/${rows[0].order_no}`);
  await page.getByRole("button", { name: /确认支付/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator("input[name=channelKey]").fill("zh-check-1");
  await dialog.locator("input[name=amount]").fill("abc");
  await dialog.locator("textarea[name=reason]").fill("人工核对渠道流水");
  await dialog.getByTestId("confirm-event").click();
  // A refusal the browser decides (money that does not parse), in Chinese, and the fields kept.
  await expect(dialog.getByRole("alert")).toBeVisible();
  await expect(dialog.locator("textarea[name=reason]")).toHaveValue("人工核对渠道流水");
  expect(await englishWords(page, data)).toEqual([]);
  await context.close();
});

test("language: a browser loads only its reader's catalogue", async ({ browser }) => {
  // A sentence of each catalogue that no other text holds, as it may appear in a script: raw or escaped.
  const marks = { en: "Paste an order no, player id, txn, refund or grant id", zh: "粘贴订单号、玩家 ID、流水号、退款单号或发放 ID" };
  const forms = (text: string) => [text, JSON.stringify(text).slice(1, -1), text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)];
  for (const [locale, other] of [["en", "zh"], ["zh", "en"]] as const) {
    const context = await browser.newContext({ locale: locale === "zh" ? "zh-CN" : "en-US" });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.add(request.url());
    });
    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: locale === "zh" ? "登录" : "Sign in", exact: true })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // Read each script the page asked for again, by its URL: a response body held by the browser can be
    // evicted before a busy test reads it.
    const texts = await Promise.all([...scripts].map(async (url) => (await context.request.get(url)).text()));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.some((text) => forms(marks[locale]).some((f) => text.includes(f))), `${locale}: its own catalogue is loaded`).toBe(true);
    expect(texts.filter((text) => forms(marks[other]).some((f) => text.includes(f))), `${locale}: the ${other} catalogue is not`).toEqual([]);
    await context.close();
  }
});

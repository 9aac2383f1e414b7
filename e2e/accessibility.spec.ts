import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { consolePages, ENGLISH_STAFF, signInAs, type Who } from "./pages";

/** axe's serious and critical findings on the page as it is now: `rule: target` lines, [] when none. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim() ?? v.help}`));
}

test("accessibility: every page has no serious or critical axe violation", async ({ browser, db }) => {
  test.setTimeout(300_000);
  const pages = await consolePages(db);
  const found: Record<string, string[]> = {};

  // axe runs in a page of a context of our own (its builder refuses browser.newPage()'s).
  const anonymous = await browser.newContext();
  const signInPage = await anonymous.newPage();
  await signInPage.goto("/sign-in");
  const signInViolations = await seriousViolations(signInPage);
  if (signInViolations.length > 0) found["sign-in"] = signInViolations;
  await anonymous.close();

  for (const who of ["manager", "admin", "agent"] as const satisfies readonly Who[]) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await signInAs(page, ENGLISH_STAFF[who]);
    for (const p of pages.filter((p) => p.who === who)) {
      const response = await page.goto(p.path);
      expect(response?.status(), p.path).toBe(p.status ?? 200);
      await page.waitForLoadState("networkidle");
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[p.name] = violations;
    }
    await context.close();
  }
  expect(found).toEqual({});
});

test("accessibility: the order page's event form, open, has no serious or critical axe violation", async ({ page, db }) => {
  const { rows } = await db.query(`SELECT tenant_id, order_no FROM orders WHERE state = 'paid' ORDER BY id LIMIT 1`);
  await signInAs(page, ENGLISH_STAFF.manager);
  await page.goto(`/orders/${rows[0].tenant_id}/${rows[0].order_no}`);
  await page.getByRole("button", { name: /Close order/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

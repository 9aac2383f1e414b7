import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// "Stuck orders" is one figure wherever it shows: the overview's card counts what the queues' stuck
// list holds, tab by tab (refunding too long included).

const number = (text: string | null): number => Number((text ?? "").replace(/[^\d]/g, ""));

async function figures(page: Page): Promise<{ overview: number; queues: number; tabs: number }> {
  await page.goto("/");
  const overview = number(await page.getByTestId("overview-stuck-count").textContent());
  await page.goto("/queues");
  const queues = number(await page.getByTestId("queue-jump-stuck-count").textContent());
  let tabs = 0;
  for (const state of ["created", "paid", "delivering", "refunding"]) tabs += number(await page.getByTestId(`queue-tab-${state}`).textContent());
  return { overview, queues, tabs };
}

test("stuck orders: the overview and the queues give one number, and say what it includes", async ({ page }) => {
  await signIn(page, "ops@example.com");
  // Orders become stuck as the clock runs: read again until one reading's figures agree.
  let seen = { overview: 0, queues: -1, tabs: -1 };
  await expect
    .poll(
      async () => {
        seen = await figures(page);
        return [seen.queues - seen.overview, seen.tabs - seen.overview];
      },
      { timeout: 30_000 },
    )
    .toEqual([0, 0]);
  expect(seen.overview).toBeGreaterThan(0);

  // The refunding ones are a tab of the same list, saying what "too long" means there.
  await page.getByTestId("queue-tab-refunding").click();
  await expect(page.getByRole("tabpanel")).toContainText("Refunding too long");
  await page.goto("/");
  await expect(page.getByTestId("overview-stuck")).toContainText("Created, paid, delivering or refunding");
  await expect(page.getByTestId("overview-stuck-states")).toContainText("Refund in progress");
});

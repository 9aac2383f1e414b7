import { test as base, expect, type Page } from "@playwright/test";
import pg from "pg";
import { E2E_DATABASE_URL } from "./env";

export const DEMO_PASSWORD = "orderops-demo";

/**
 * Signs in through the real form and waits for the console header. Longer than an assertion's usual
 * 5 s: a sign-in is several round trips (next-auth's providers, CSRF token, credentials with bcrypt,
 * then the console), and the first one a cold web process serves loads each of their routes — two
 * nodes have three web processes to warm.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(email, { timeout: 20_000 });
}

export const test = base.extend<{ db: pg.Pool }>({
  db: async ({}, use) => {
    const pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 2 });
    await use(pool);
    await pool.end();
  },
});

export { expect };

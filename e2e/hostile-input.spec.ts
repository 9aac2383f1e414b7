import { expect, signIn, test } from "./fixtures";

// Issue 11, items 6 and 7, against the built app: URLs a hostile or unlucky user types. Each used to
// end on Next's error screen or a bare 500; now a bad filter is reported beside the results and
// ignored, and a path that names nothing is the not-found page.

test("hostile input: the orders page reports a filter it cannot use and shows the results anyway", async ({ page }) => {
  await signIn(page, "agent@example.com");

  let response = await page.goto("/orders?from=2026-13-45");
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Not a valid date; ignored.")).toBeVisible();
  await expect(page.getByTestId("orders-total")).toBeVisible();

  // Gone from the tz database since 2020: ICU still knows it (as Los Angeles), PostgreSQL does not.
  response = await page.goto("/orders?from=2026-01-01&to=2026-12-31&tz=US/Pacific-New");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("orders-total")).toBeVisible();

  response = await page.goto("/orders?from=2026-01-01&tz=Mars/Olympus_Mons");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: "Unknown time zone" })).toHaveText("Unknown time zone “Mars/Olympus_Mons”: dates are read as UTC days.");

  response = await page.goto("/orders?q=p-1%00");
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Contains a control character that cannot be searched for; ignored.")).toBeVisible();
  await expect(page.getByTestId("orders-total")).toBeVisible();
});

test("hostile input: the audit explorer drops a filter holding a NUL and says why", async ({ page }) => {
  await signIn(page, "manager@example.com");
  const response = await page.goto("/audit?actor=staff%3Aa%00");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("alert").filter({ hasText: "actor" })).toContainText("actor: contains a control character (NUL) that cannot be stored");
});

test("hostile input: an order URL that names nothing is the not-found page, never an error", async ({ page, request }) => {
  await signIn(page, "agent@example.com");
  for (const path of ["/orders/xiaoxiao/%E0%A4%A", "/orders/xiaoxiao/X%00", "/orders/%00/X-1", "/orders/%ED%A0%80/X-1"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  }
  const api = await request.get("/api/v1/orders/%E0%A4%A");
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ error: { code: "not-found", message: "Not found." } });
});

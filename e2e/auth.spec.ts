import { hashPassword } from "@/lib/auth/passwords";
import { E2E_PORT } from "./env";
import { DEMO_PASSWORD, expect, signIn, test } from "./fixtures";

test("auth: a staff member signs in, sees who they are, and signs out", async ({ page }) => {
  await signIn(page, "agent@example.com");
  await expect(page.getByTestId("signed-in-as")).toContainText("agent");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("auth: an anonymous browser is sent to sign-in and an anonymous API call gets 401", async ({ page, request }) => {
  for (const path of ["/", "/admin/users", "/orders/xiaoxiao/anything"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  }
  const response = await request.get("/api/console/overview");
  expect(response.status()).toBe(401);
  expect(await response.json()).toMatchObject({ error: { code: "unauthenticated" } });
});

test("auth: repeated failures lock the attacking address out, even against the right password; the owner elsewhere still signs in", async ({ page, db }) => {
  const email = `lockout-${Date.now()}@example.com`;
  await db.query(`INSERT INTO staff_users (email, name, password_hash, role, tenant_ids) VALUES ($1, 'Lockout', $2, 'agent', '{xiaoxiao}')`, [
    email,
    await hashPassword("the-right-password"),
  ]);

  // The stranger: every request from this page comes through the trusted proxy from their address.
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.7" });
  await page.goto("/sign-in");
  const submit = page.getByRole("button", { name: "Sign in" });
  // The form's own alert (Next.js has an empty route announcer with the same role).
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`wrong-${attempt}`);
    await submit.click();
    await expect(submit).toBeEnabled();
    await expect(alert).toHaveText("Wrong email or password.");
  }
  await page.getByLabel("Password").fill("the-right-password");
  await submit.click();
  await expect(alert).toContainText("Too many failed sign-ins");

  // The owner, from their own address, is not locked out by the stranger.
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "198.51.100.9" });
  await page.getByLabel("Password").fill("the-right-password");
  await submit.click();
  await expect(page.getByTestId("signed-in-as")).toContainText(email);

  const { rows } = await db.query(
    `SELECT action, ip, count(*)::int AS n FROM audit_events WHERE target = $1 GROUP BY action, ip ORDER BY action`,
    [email],
  );
  expect(rows).toEqual([
    { action: "sign-in.failed", ip: "203.0.113.7", n: 5 },
    { action: "sign-in.locked", ip: "203.0.113.7", n: 1 },
    { action: "sign-in.succeeded", ip: "198.51.100.9", n: 1 },
  ]);
});

test("auth: a copied session cookie is dead after sign-out", async ({ page, request }) => {
  await signIn(page, "ops@example.com");
  const cookie = (await page.context().cookies())
    .filter((c) => c.name.includes("next-auth"))
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
  const overview = () => request.get("/api/console/overview", { headers: { cookie } });
  expect((await overview()).status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replayed = await overview();
  expect(replayed.status()).toBe(401);
  expect(await replayed.json()).toMatchObject({ error: { code: "unauthenticated" } });
});

for (const [label, callbackUrl] of [
  ["a backslash", `/%5Clocalhost:${E2E_PORT}/x`],
  ["a tab", `/%09/localhost:${E2E_PORT}/x`],
  ["an encoded slash", `/%2F/localhost:${E2E_PORT}/x`],
] as const) {
  test(`auth: a callbackUrl with ${label} cannot send the browser to another host after sign-in`, async ({ page }) => {
    await page.goto(`/sign-in?callbackUrl=${callbackUrl}`);
    await page.getByLabel("Email").fill("agent@example.com");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signed-in-as")).toContainText("agent@example.com");
    expect(new URL(page.url()).host).toBe(`127.0.0.1:${E2E_PORT}`);
  });
}

test("auth: an agent is refused the staff admin page, and the refusal is audited", async ({ page, db }) => {
  await signIn(page, "agent@example.com");
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/forbidden/);
  await expect(page.getByRole("heading", { name: "Not allowed for your role" })).toBeVisible();
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM audit_events WHERE actor = 'staff:agent@example.com' AND action = 'access.denied'`,
  );
  expect(rows[0].n).toBeGreaterThan(0);
});

test("auth: the xiaoxiao-only agent cannot open a fangzhou order (404), but can open a xiaoxiao one", async ({ page, db }) => {
  const pick = async (tenant: string) =>
    (await db.query(`SELECT order_no FROM orders WHERE tenant_id = $1 ORDER BY id LIMIT 1`, [tenant])).rows[0].order_no as string;
  const fangzhou = await pick("fangzhou");
  const xiaoxiao = await pick("xiaoxiao");
  await signIn(page, "agent.xiaoxiao@example.com");

  // The page is a shell; its data read is what is refused, and the page says not found.
  const [refused] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === `/api/console/orders/fangzhou/${fangzhou}/page`),
    page.goto(`/orders/fangzhou/${fangzhou}`),
  ]);
  expect(refused.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  const opened = await page.goto(`/orders/xiaoxiao/${xiaoxiao}`);
  expect(opened?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: xiaoxiao })).toBeVisible();

  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM audit_events WHERE actor = 'staff:agent.xiaoxiao@example.com' AND action = 'access.denied' AND target = $1`,
    [`order:fangzhou/${fangzhou}`],
  );
  expect(rows[0].n).toBe(1);
});

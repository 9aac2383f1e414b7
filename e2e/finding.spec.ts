import { expect, signIn, test } from "./fixtures";

// Issue 14, "Finding": the header's search box on every page, the player page, saved views in the
// navigation, and the console's dead ends.

test("finding: a payment transaction id pasted into the header on any page opens its order in one step", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT t.biz_key, o.tenant_id, o.order_no FROM order_transitions t JOIN orders o ON o.id = t.order_id
     WHERE t.event = 'pay' AND o.tenant_id IN ('xiaoxiao', 'fangzhou')
       AND (SELECT count(*) FROM order_transitions u WHERE u.event = 'pay' AND u.biz_key = t.biz_key) = 1
       AND NOT EXISTS (SELECT 1 FROM orders x WHERE x.order_no = t.biz_key OR x.player_id = t.biz_key)
     ORDER BY t.id LIMIT 1`,
  );
  const pay = rows[0];
  expect(pay).toBeDefined();
  await signIn(page, "agent@example.com");
  await page.goto("/dashboard");
  // "/" focuses the header's box from anywhere on the page.
  await page.locator("body").press("/");
  const box = page.getByRole("search", { name: "Quick search" }).getByRole("searchbox");
  await expect(box).toBeFocused();
  await box.fill(pay.biz_key);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/orders/${pay.tenant_id}/${pay.order_no}$`));
  await expect(page.getByRole("heading", { name: pay.order_no })).toBeVisible();
  // The tab names the order (the shell's own title names none), and stops naming it once it is left.
  await expect(page).toHaveTitle(`Order ${pay.order_no} · Order Ops`);
  // Back leads to where the search started, not to the search again.
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).not.toHaveTitle(new RegExp(pay.order_no));
});

test("finding: a term several orders share opens the orders list with it; typing '/' in a field stays typing", async ({ page, db }) => {
  const { rows } = await db.query(
    `SELECT player_id, count(*)::int AS n FROM orders WHERE tenant_id IN ('xiaoxiao', 'fangzhou') GROUP BY player_id HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1`,
  );
  const player = rows[0];
  await signIn(page, "agent@example.com");
  await page.goto("/orders");
  const filterBox = page.getByLabel("Order no, player id, payment transaction id or refund id", { exact: true });
  await filterBox.click();
  await filterBox.press("/");
  await expect(filterBox).toHaveValue("/");
  await expect(filterBox).toBeFocused();

  const box = page.getByRole("search", { name: "Quick search" }).getByRole("searchbox");
  await box.fill(player.player_id);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/orders\\?q=${encodeURIComponent(player.player_id)}$`));
  await expect(page.getByTestId("orders-total")).toHaveText(`${player.n} orders match`);
});

test("finding: the player page shows lifetime money, exceptions and every order, from a player id in the list", async ({ page, db }, testInfo) => {
  const { rows } = await db.query(
    `SELECT o.tenant_id, o.player_id, o.order_no FROM orders o
     WHERE o.tenant_id = 'fangzhou' AND o.state = 'refunded'
       AND (SELECT count(*) FROM orders p WHERE p.tenant_id = o.tenant_id AND p.player_id = o.player_id) BETWEEN 2 AND 50
     ORDER BY o.id LIMIT 1`,
  );
  const target = rows[0];
  expect(target).toBeDefined();
  const money = (
    await db.query(
      `SELECT count(*)::int AS orders,
              coalesce(sum(o.amount) FILTER (WHERE EXISTS (SELECT 1 FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'pay')), 0)::bigint AS paid
       FROM orders o WHERE o.tenant_id = $1 AND o.player_id = $2`,
      [target.tenant_id, target.player_id],
    )
  ).rows[0];

  await signIn(page, "manager@example.com");
  await page.goto(`/orders?q=${encodeURIComponent(target.order_no)}`);
  await page.getByTestId(`order-row-${target.tenant_id}-${target.order_no}`).getByRole("link", { name: target.player_id, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/players/fangzhou/${encodeURIComponent(target.player_id)}$`));
  await expect(page.getByTestId("player-id")).toHaveText(target.player_id);
  await expect(page).toHaveTitle(new RegExp(`^Player ${target.player_id} · Order Ops$`));
  await expect(page.getByTestId("player-orders").locator("tbody tr")).toHaveCount(money.orders);
  const cny = page.getByTestId("player-money-CNY");
  await expect(cny.getByTestId("player-paid")).toHaveText(new Intl.NumberFormat("en", { style: "currency", currency: "CNY" }).format(Number(money.paid) / 100));
  await expect(cny.getByTestId("player-rate")).not.toHaveText("0%");
  await page.screenshot({ path: testInfo.outputPath("player-page.png"), fullPage: true });

  // Another product's player page is not found, like its orders: the page is a shell, its data read is refused.
  await signIn(page, "agent.xiaoxiao@example.com");
  const [refused] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === `/api/console/players/fangzhou/${encodeURIComponent(target.player_id)}`),
    page.goto(`/players/fangzhou/${encodeURIComponent(target.player_id)}`),
  ]);
  expect(refused.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("finding: a player's orders turn page by page in the browser, each page an address of its own", async ({ page, db }) => {
  // A player with one order more than a page (50): closed orders of long ago, which nothing waits on
  // and no list or chart of recent orders shows to the specs that follow.
  const player = `e2e-pager-${Date.now()}`;
  await db.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT 'fangzhou', $1 || '-' || lpad(n::text, 3, '0'), $1, 600, 'CNY', 'closed', now() - interval '400 days', now() - interval '400 days' - n * interval '1 minute', now()
     FROM generate_series(1, 51) n`,
    [player],
  );
  await signIn(page, "manager@example.com");
  await page.goto(`/players/fangzhou/${player}`);
  const rows = page.getByTestId("player-orders").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(`${player}-001`);
  // Set on this document: still there after paging means no page was loaded, only its data.
  await page.evaluate(() => Object.assign(window, { pagedInPlace: true }));
  const pager = page.getByRole("navigation", { name: "Pages" });

  await pager.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(new RegExp(`/players/fangzhou/${player}\\?after=`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${player}-051`);
  await pager.getByRole("link", { name: "← Newer" }).click();
  await expect(page).toHaveURL(/\?before=/);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(`${player}-001`);
  await expect(pager.getByRole("link", { name: "← Newer" })).toHaveCount(0);
  await pager.getByRole("link", { name: "Newest" }).click();
  await expect(page).toHaveURL(new RegExp(`/players/fangzhou/${player}$`));
  await expect(pager.getByRole("link", { name: "Newest" })).toHaveCount(0);
  expect(await page.evaluate(() => "pagedInPlace" in window)).toBe(true);
  await expect(page).toHaveTitle(`Player ${player} · Order Ops`);
});

test("finding: a saved view appears in the navigation and opens with its filters; the list exports as CSV", async ({ page, db }) => {
  await db.query(`DELETE FROM saved_views WHERE name = 'Stuck paid (e2e)'`);
  await signIn(page, "ops@example.com");
  await page.goto("/orders?tenant=fangzhou&state=paid&stuck=1");
  await page.getByTestId("save-view").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Stuck paid (e2e)");
  await dialog.getByLabel(/Share with everyone on/).check();
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/[?&]view=\d+/);
  await expect(page.getByTestId("view-name")).toHaveText("Stuck paid (e2e)");

  const saved = (await db.query(`SELECT id::int, tenant_id, shared, filters FROM saved_views WHERE name = 'Stuck paid (e2e)'`)).rows;
  expect(saved).toEqual([{ id: expect.any(Number), tenant_id: "fangzhou", shared: true, filters: { state: "paid", stuck: true } }]);
  const facts = await db.query(`SELECT actor FROM audit_events WHERE action = 'view.saved' AND target = $1`, [`view:${saved[0].id}`]);
  expect(facts.rows).toEqual([{ actor: "staff:ops@example.com" }]);

  // A colleague on the product finds it under Orders, current once opened, with its filters.
  await signIn(page, "agent@example.com");
  await page.goto("/queues");
  const nav = page.getByRole("navigation", { name: "Main" });
  const link = nav.getByRole("link", { name: "Stuck paid (e2e)" });
  await link.click();
  await expect(page).toHaveURL(new RegExp(`view=${saved[0].id}`));
  await expect(link).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Product")).toHaveValue("fangzhou");
  await expect(page.getByLabel("State")).toHaveValue("paid");
  await expect(page.getByLabel(/Stuck only/)).toBeChecked();
  // Agents keep their own views; only ops and up share, and only its creator or a manager changes it.
  await expect(page.getByRole("button", { name: "Rename" })).toHaveCount(0);

  // The filtered list as CSV, for those who may take it out.
  await signIn(page, "ops@example.com");
  await page.goto(`/orders?tenant=fangzhou&state=paid&stuck=1&view=${saved[0].id}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("orders-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-fangzhou-\d{8}T\d{6}Z\.csv$/);
  const exported = await db.query(`SELECT detail FROM audit_events WHERE action = 'orders.exported' ORDER BY id DESC LIMIT 1`);
  expect(exported.rows[0].detail).toEqual({ filters: { state: "paid", stuck: true, tenant: "fangzhou" } });
});

test("finding: dead ends are the console's own not-found page, with the search box and a way back", async ({ page }, testInfo) => {
  await signIn(page, "agent@example.com");
  await page.goto("/no-such-page");
  await expect(page).toHaveTitle("Not found · Order Ops");
  for (const path of ["/no-such-page", "/orders/xiaoxiao/NO-SUCH-ORDER", "/orders/xiaoxiao/%E0%A4%A"]) {
    // An order page is a shell whatever it names: for a well-formed order no, its data read is the 404.
    const orderRead = path.endsWith("NO-SUCH-ORDER") ? page.waitForResponse((r) => r.url().endsWith("/NO-SUCH-ORDER/page")) : null;
    const response = await page.goto(path);
    expect((await orderRead)?.status() ?? response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("search", { name: "Find an order" })).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath("not-found.png"), fullPage: true });
  await page.getByRole("link", { name: "Overview" }).first().click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  // The forbidden page wears the same frame and says which role the page needs.
  await page.goto("/audit");
  await expect(page).toHaveURL(/\/forbidden/);
  await expect(page.getByRole("heading", { name: "Not allowed for your role" })).toBeVisible();
  await expect(page.getByText("which starts at the manager role")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});

test("navigation: the sidebar marks the current page and holds a role's sections at 1366 px", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, "manager@example.com");
  await page.goto("/queues");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Queues" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Orders", exact: true })).not.toHaveAttribute("aria-current", "page");
  for (const section of ["Work", "Money & goods", "Oversight"]) await expect(nav.getByRole("heading", { name: section })).toBeVisible();
  await expect(nav.getByRole("heading", { name: "Admin" })).toHaveCount(0);
  await expect(page).toHaveTitle("Queues · Order Ops");
  // The header is one line: brand, search, language, who, sign out.
  const header = await page.locator("header").boundingBox();
  expect(header!.height).toBeLessThan(64);

  // Narrow screens fold the navigation into a menu.
  await page.setViewportSize({ width: 600, height: 900 });
  await expect(nav.getByRole("link", { name: "Queues" })).toBeHidden();
  await nav.getByRole("button", { name: "Menu" }).click();
  await nav.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeHidden();
});

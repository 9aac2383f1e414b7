// Every page of the console, as the page-by-page passes (language, accessibility, screenshots) open
// them: with real ids from the e2e database, and who may open each.
import type { Page } from "@playwright/test";
import type pg from "pg";
import { DEMO_PASSWORD, expect } from "./fixtures";

export type Who = "manager" | "admin" | "agent";

export interface ConsolePage {
  readonly name: string;
  readonly path: string;
  readonly who: Who;
  /** The page answers 404 on purpose (the not-found page). */
  readonly status?: number;
}

/** Real ids to put in the paths: a busy order (refused refund, exception, grants), its player, a staff account. */
export async function consolePages(db: pg.Pool): Promise<ConsolePage[]> {
  const order = (
    await db.query(
      `SELECT o.tenant_id, o.order_no, o.player_id FROM orders o
       WHERE EXISTS (SELECT 1 FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'reject-refund')
         AND EXISTS (SELECT 1 FROM grants g WHERE g.order_id = o.id)
       ORDER BY o.id LIMIT 1`,
    )
  ).rows[0] ?? (await db.query(`SELECT tenant_id, order_no, player_id FROM orders ORDER BY id LIMIT 1`)).rows[0];
  const staff = (await db.query(`SELECT id FROM staff_users WHERE email = 'agent@example.com'`)).rows[0];
  // A webhook message of a demo product, for its deliveries page (any will do: each shows its attempts or says there are none).
  const message = (await db.query(`SELECT id FROM outbox_messages WHERE tenant_id IN ('xiaoxiao', 'fangzhou') ORDER BY id DESC LIMIT 1`)).rows[0];
  return [
    { name: "overview", path: "/", who: "manager" },
    { name: "orders", path: "/orders", who: "manager" },
    { name: "orders-stuck", path: "/orders?stuck=1", who: "manager" },
    { name: "order", path: `/orders/${order.tenant_id}/${encodeURIComponent(order.order_no)}`, who: "manager" },
    { name: "player", path: `/players/${order.tenant_id}/${encodeURIComponent(order.player_id)}`, who: "manager" },
    { name: "search", path: `/search?q=${encodeURIComponent(order.player_id)}`, who: "manager" },
    { name: "queues", path: "/queues", who: "manager" },
    { name: "refund-reviews", path: "/refund-reviews", who: "manager" },
    { name: "dashboard", path: "/dashboard", who: "manager" },
    { name: "bulk", path: "/bulk", who: "manager" },
    { name: "approvals", path: "/approvals", who: "manager" },
    { name: "audit", path: "/audit", who: "manager" },
    { name: "settings", path: "/settings", who: "manager" },
    { name: "deliveries", path: "/deliveries", who: "manager" },
    { name: "delivery", path: `/deliveries/${message.id}`, who: "manager" },
    { name: "deliveries-admin", path: "/deliveries?status=dead", who: "admin" },
    { name: "forbidden", path: "/forbidden", who: "agent" },
    { name: "not-found", path: "/no-such-page", who: "manager", status: 404 },
    { name: "admin-users", path: "/admin/users", who: "admin" },
    { name: "admin-user", path: `/admin/users/${staff.id}`, who: "admin" },
    { name: "admin-new-user", path: "/admin/users/new", who: "admin" },
    { name: "admin-api-keys", path: "/admin/api-keys", who: "admin" },
    { name: "admin-api-docs", path: "/admin/api-docs", who: "admin" },
    { name: "admin-security", path: "/admin/security", who: "admin" },
  ];
}

/** Staff of each kind who read the console in Chinese: copies of the demo accounts (same password). */
export const CHINESE_STAFF: Readonly<Record<Who, string>> = {
  manager: "manager.zh@example.com",
  admin: "admin.zh@example.com",
  agent: "agent.zh@example.com",
};
export const ENGLISH_STAFF: Readonly<Record<Who, string>> = { manager: "manager@example.com", admin: "admin@example.com", agent: "agent@example.com" };

export async function ensureChineseStaff(db: pg.Pool): Promise<void> {
  for (const [who, email] of Object.entries(CHINESE_STAFF)) {
    await db.query(
      `INSERT INTO staff_users (email, name, password_hash, role, tenant_ids, locale)
       SELECT $1, $2, password_hash, role, tenant_ids, 'zh' FROM staff_users WHERE email = $3
       ON CONFLICT (email) DO UPDATE SET locale = 'zh'`,
      [email, `演示${who === "manager" ? "经理" : who === "admin" ? "管理员" : "客服"}`, ENGLISH_STAFF[who as Who]],
    );
  }
}

/**
 * Signs in through the form in whatever language it shows (by the fields' ids, not their labels),
 * waiting for the console header as long as signIn() in fixtures.ts does, for the same reasons.
 */
export async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(DEMO_PASSWORD);
  await page.locator("form button[type=submit]").click();
  await expect(page.getByTestId("signed-in-as")).toContainText(email, { timeout: 20_000 });
}

// The console's navigation as data: sections by what the work is, each link shown to the roles
// whose permission opens its page (the same permission the page itself requires). Pure.
import { can, type Permission, type Role } from "@/lib/auth/permissions";

export type NavKey =
  | "overview"
  | "orders"
  | "queues"
  | "refundReviews"
  | "approvals"
  | "bulk"
  | "audit"
  | "dashboard"
  | "deliveries"
  | "settings"
  | "staff"
  | "apiKeys"
  | "apiDocs"
  | "security";

export type NavSection = "work" | "money" | "oversight" | "admin";

export interface NavItem {
  readonly href: string;
  readonly key: NavKey;
  readonly permission: Permission;
}

export const NAV: readonly { readonly section: NavSection; readonly items: readonly NavItem[] }[] = [
  {
    section: "work",
    items: [
      { href: "/", key: "overview", permission: "orders:view" },
      { href: "/orders", key: "orders", permission: "orders:view" },
      { href: "/queues", key: "queues", permission: "orders:view" },
      { href: "/refund-reviews", key: "refundReviews", permission: "orders:view" },
    ],
  },
  {
    section: "money",
    items: [
      { href: "/approvals", key: "approvals", permission: "refunds:approve" },
      { href: "/bulk", key: "bulk", permission: "orders:bulk" },
    ],
  },
  {
    section: "oversight",
    items: [
      { href: "/audit", key: "audit", permission: "audit:view" },
      { href: "/dashboard", key: "dashboard", permission: "orders:view" },
      { href: "/deliveries", key: "deliveries", permission: "deliveries:view" },
      { href: "/settings", key: "settings", permission: "settings:edit" },
    ],
  },
  {
    section: "admin",
    items: [
      { href: "/admin/users", key: "staff", permission: "users:manage" },
      { href: "/admin/api-keys", key: "apiKeys", permission: "apikeys:manage" },
      { href: "/admin/api-docs", key: "apiDocs", permission: "apikeys:manage" },
      { href: "/admin/security", key: "security", permission: "users:manage" },
    ],
  },
];

/** The sections a role sees, each with only the links it may open; empty sections are left out. */
export function navFor(role: Role): { readonly section: NavSection; readonly items: readonly NavItem[] }[] {
  return NAV.map(({ section, items }) => ({ section, items: items.filter((item) => can(role, item.permission)) })).filter((s) => s.items.length > 0);
}

/**
 * Whether a link is the page being shown: the overview only on "/", any other link on its own path
 * and below it (an order's page is part of Orders).
 */
export function isCurrent(href: string, pathname: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}

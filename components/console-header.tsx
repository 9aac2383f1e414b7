import Link from "next/link";
import { useTranslations } from "next-intl";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { LocaleSwitcher } from "@/components/i18n/locale-switcher";
import { can, type Permission } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";

type NavKey = "overview" | "orders" | "queues" | "dashboard" | "bulk" | "approvals" | "audit" | "settings" | "staff" | "apiKeys";

const NAV: readonly { href: string; key: NavKey; permission: Permission }[] = [
  { href: "/", key: "overview", permission: "orders:view" },
  { href: "/orders", key: "orders", permission: "orders:view" },
  { href: "/queues", key: "queues", permission: "orders:view" },
  { href: "/dashboard", key: "dashboard", permission: "orders:view" },
  { href: "/bulk", key: "bulk", permission: "orders:bulk" },
  { href: "/approvals", key: "approvals", permission: "refunds:approve" },
  { href: "/audit", key: "audit", permission: "audit:view" },
  { href: "/settings", key: "settings", permission: "settings:edit" },
  { href: "/admin/users", key: "staff", permission: "users:manage" },
  { href: "/admin/api-keys", key: "apiKeys", permission: "apikeys:manage" },
];

export function ConsoleHeader({ staff }: { staff: Staff }) {
  const t = useTranslations("nav");
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-6 py-3">
        <Link href="/" className="font-semibold">
          Order Ops
        </Link>
        <nav aria-label={t("main")} className="flex gap-1 text-sm">
          {NAV.filter((item) => can(staff.role, item.permission)).map((item) => (
            <Link key={item.href} href={item.href} className="rounded px-2 py-1 text-slate-700 hover:bg-slate-100">
              {t(item.key)}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <LocaleSwitcher />
          <span data-testid="signed-in-as">
            <span className="font-medium">{staff.email}</span>{" "}
            <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{staff.role}</span>
          </span>
          <SignOutButton label={t("signOut")} />
        </div>
      </div>
    </header>
  );
}

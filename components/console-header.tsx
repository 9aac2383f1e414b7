import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { LocaleSwitcher } from "@/components/i18n/locale-switcher";
import { SearchBox } from "@/components/search/search-box";
import { KeysButton } from "@/components/ui/keyboard";
import { can } from "@/lib/auth/permissions";
import type { Me } from "@/lib/read/me";

/**
 * The bar above every console page: the product's name, the one search box (for everyone who sees
 * orders; "/" focuses it), the keyboard shortcuts' overlay, the language and who is signed in (null
 * until the browser has read it).
 * The pages are in the sidebar.
 */
export function ConsoleHeader({ staff }: { staff: Me | null }) {
  const t = useTranslations("nav");
  const roles = useTranslations("admin.roleName");
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2.5 lg:flex-nowrap">
        <Link href="/" className="shrink-0 font-semibold lg:w-52">
          {t("brand")}
        </Link>
        {/* Held out only once the reader is known not to see orders: "/" works from the first paint. */}
        {staff === null || can(staff.role, "orders:view") ? (
          <div className="order-last w-full lg:order-none lg:w-auto lg:max-w-xl lg:flex-1">
            <SearchBox id="header-search" variant="header" shortcut />
          </div>
        ) : null}
        <div className="ml-auto flex items-center gap-3 text-sm">
          <KeysButton />
          <LocaleSwitcher />
          {staff ? (
            <span data-testid="signed-in-as" className="hidden min-w-0 sm:inline">
              <span className="font-medium">{staff.email}</span>{" "}
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                {roles(staff.role)}
              </span>
            </span>
          ) : null}
          <SignOutButton label={t("signOut")} />
        </div>
      </div>
    </header>
  );
}

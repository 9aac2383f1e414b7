import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { BackButton } from "@/components/navigation/back-button";
import { requireStaff } from "@/lib/auth/page";
import { isPermission, leastRoleWith } from "@/lib/auth/permissions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("forbidden"))("pageTitle") };
}

// Where requireStaff() sends a signed-in caller without the page's permission: says which role the
// page starts at, inside the console's frame like the not-found page, with the same ways on.
export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const staff = await requireStaff();
  const t = await getTranslations("forbidden");
  const roles = await getTranslations("admin.roleName");
  const { need } = await searchParams;
  const least = isPermission(need) ? leastRoleWith(need) : undefined;
  return (
    <div className="mx-auto max-w-2xl py-6" data-testid="forbidden">
      <p className="font-mono text-sm text-slate-500">403</p>
      <h1 className="mt-1 text-2xl font-semibold">{t("title")}</h1>
      <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-slate-800">
        <p>{t("signedInAs", { role: roles(staff.role) })}</p>
        {least ? <p className="mt-1">{t("needs", { permission: need!, least: roles(least) })}</p> : null}
        <p className="mt-1">{t("askAdmin")}</p>
      </div>
      <div className="mt-6 flex flex-wrap items-center gap-3 text-sm">
        <BackButton label={t("goBack")} />
        <Link href="/" className="rounded-md border border-slate-300 bg-white px-3 py-2 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
          {t("back")}
        </Link>
      </div>
    </div>
  );
}

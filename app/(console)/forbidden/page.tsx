import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/auth/page";
import { isPermission, leastRoleWith } from "@/lib/auth/permissions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("forbidden"))("pageTitle") };
}

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const staff = await requireStaff();
  const t = await getTranslations("forbidden");
  const roles = await getTranslations("admin.roleName");
  const { need } = await searchParams;
  const least = isPermission(need) ? leastRoleWith(need) : undefined;
  return (
    <div className="max-w-lg rounded-lg border border-amber-200 bg-amber-50 p-6">
      <h1 className="text-lg font-semibold">{t("title")}</h1>
      <p className="mt-2 text-sm text-slate-700">
        {t("signedInAs", { role: roles(staff.role) })} {least ? t("needs", { permission: need!, least: roles(least) }) : null} {t("askAdmin")}
      </p>
      <Link href="/" className="mt-4 inline-block text-sm underline">
        {t("back")}
      </Link>
    </div>
  );
}

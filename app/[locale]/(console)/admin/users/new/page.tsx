import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { requireStaff } from "@/lib/auth/page";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { administratorOf, grantableRoles } from "@/lib/auth/staff-administrator";
import { listTenantChoices } from "@/lib/auth/users";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.newUser");
  return { title: t("title") };
}

export default async function NewStaffUserPage() {
  const staff = await requireStaff("users:manage");
  const t = await getTranslations("admin");
  const by = administratorOf(staff);
  // Offered: only what this admin may hand out (the action and createStaffUser refuse the rest).
  const tenants = await listTenantChoices(by);
  return (
    <div className="space-y-6">
      <div>
        <Link href="/admin/users" className="text-sm underline">
          {t("backToStaff")}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t("newUser.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("newUser.subtitle")}</p>
      </div>
      <CreateUserForm tenants={tenants} roles={grantableRoles(by)} minPasswordLength={MIN_PASSWORD_LENGTH} />
    </div>
  );
}

import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { EditUserForm } from "@/components/admin/edit-user-form";
import { ResetPasswordForm } from "@/components/admin/reset-password-form";
import { UserStatusForm } from "@/components/admin/user-status-form";
import { Time } from "@/components/ui/time";
import { requireResource, requireStaff } from "@/lib/auth/page";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { staffUserScope } from "@/lib/auth/scope";
import { administratorOf, grantableRoles } from "@/lib/auth/staff-administrator";
import { getStaffUser, listTenantChoices } from "@/lib/auth/users";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.user");
  return { title: t("title") };
}

const byId = staffUserScope((id: number) => id);

export default async function StaffUserPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaff("users:manage");
  const { id: rawId } = await params;
  if (!/^[1-9][0-9]{0,14}$/.test(rawId)) notFound();
  // An account outside this admin's scope is "not found" (and the attempt audited), like a missing one.
  const { id } = await requireResource(staff, byId, Number(rawId));
  const user = await getStaffUser(id);
  if (!user) notFound();
  const t = await getTranslations("admin");
  const by = administratorOf(staff);
  const tenants = await listTenantChoices(by);
  const grantable = grantableRoles(by);
  // The account's own role stays selectable even where it is above the admin's (then only kept, never granted).
  const roles = grantable.includes(user.role) ? grantable : [...grantable, user.role];
  const isSelf = user.id === staff.id;

  return (
    <div className="space-y-8">
      <div>
        <Link href="/admin/users" className="text-sm underline">
          {t("backToStaff")}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{user.email}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {user.disabledAt ? t("status.disabled") : t("status.active")} · {t(`roleName.${user.role}`)} · {t("user.createdAt")}{" "}
          <Time value={user.createdAt} />
        </p>
      </div>

      <section aria-labelledby="profile-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="profile-heading" className="mb-4 text-lg font-semibold">
          {t("user.profile")}
        </h2>
        <EditUserForm
          user={{ id: user.id, email: user.email, name: user.name, role: user.role, tenantIds: user.tenantIds }}
          tenants={tenants}
          roles={roles}
          isSelf={isSelf}
        />
      </section>

      <section aria-labelledby="status-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="status-heading" className="mb-4 text-lg font-semibold">
          {t("user.access")}
        </h2>
        <UserStatusForm id={user.id} email={user.email} disabled={user.disabledAt !== null} isSelf={isSelf} />
      </section>

      <section aria-labelledby="password-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="password-heading" className="mb-4 text-lg font-semibold">
          {t("user.password")}
        </h2>
        <ResetPasswordForm id={user.id} email={user.email} isSelf={isSelf} minPasswordLength={MIN_PASSWORD_LENGTH} />
      </section>
    </div>
  );
}

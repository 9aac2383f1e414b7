import Link from "next/link";
import { notFound } from "next/navigation";
import { EditUserForm } from "@/components/admin/edit-user-form";
import { ResetPasswordForm } from "@/components/admin/reset-password-form";
import { UserStatusForm } from "@/components/admin/user-status-form";
import { requireStaff } from "@/lib/auth/page";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { getStaffUser, listTenantChoices } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "Staff user" };

export default async function StaffUserPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaff("users:manage");
  const { id: rawId } = await params;
  const id = /^[1-9][0-9]{0,14}$/.test(rawId) ? Number(rawId) : null;
  const user = id === null ? null : await getStaffUser(id);
  if (!user) notFound();
  const tenants = await listTenantChoices();
  const isSelf = user.id === staff.id;

  return (
    <main className="space-y-8">
      <div>
        <Link href="/admin/users" className="text-sm underline">
          ← Staff
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{user.email}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {user.disabledAt ? "Disabled" : "Active"} · {user.role} · created{" "}
          <time dateTime={user.createdAt.toISOString()}>{user.createdAt.toISOString().slice(0, 10)}</time>
        </p>
      </div>

      <section aria-labelledby="profile-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="profile-heading" className="mb-4 text-lg font-semibold">
          Role and scope
        </h2>
        <EditUserForm
          user={{ id: user.id, email: user.email, name: user.name, role: user.role, tenantIds: user.tenantIds }}
          tenants={tenants}
          isSelf={isSelf}
        />
      </section>

      <section aria-labelledby="status-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="status-heading" className="mb-4 text-lg font-semibold">
          Access
        </h2>
        <UserStatusForm id={user.id} email={user.email} disabled={user.disabledAt !== null} isSelf={isSelf} />
      </section>

      <section aria-labelledby="password-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="password-heading" className="mb-4 text-lg font-semibold">
          Password
        </h2>
        <ResetPasswordForm id={user.id} email={user.email} isSelf={isSelf} minPasswordLength={MIN_PASSWORD_LENGTH} />
      </section>
    </main>
  );
}

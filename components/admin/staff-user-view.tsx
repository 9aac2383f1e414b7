"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { notFound, usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { useRecordTitle } from "@/components/ui/record-title";
import { Time } from "@/components/ui/time";
import type { StaffUserModel } from "@/lib/read/staff-user";
import { readModel } from "@/lib/read/wire";
import { RECORD_PAGES, recordOfPath, staffUserHref } from "@/lib/http/record-pages";
import { EditUserForm } from "./edit-user-form";
import { ResetPasswordForm } from "./reset-password-form";
import { ADMIN_KEY, adminKeys } from "./query-keys";
import { UserStatusForm } from "./user-status-form";

/**
 * One staff member: role and products, access, password. Its read model (lib/read/staff-user.ts)
 * comes from /api/console/admin/users/<id>, which answers not found for an account outside the
 * admin's scope, like a missing one. One shell serves every account (proxy.ts rewrites
 * /admin/users/<id> to it), so the account is named by the address in the browser.
 */
export function StaffUserView() {
  const { id } = recordOfPath(RECORD_PAGES.staffUser, usePathname()) ?? notFound();
  const t = useTranslations("admin");
  const client = useQueryClient();
  const { data: m, error } = useQuery({
    queryKey: adminKeys.user(id),
    queryFn: ({ signal }) => readModel<StaffUserModel>(`/api/console/admin/users/${encodeURIComponent(id)}`, signal),
    retry: retryRead,
  });
  useRecordTitle(m?.user.email ?? t("user.title"));
  if (error) showReadRefusal(error, staffUserHref(id), "users:manage");
  if (!m) return <StaffUserLoading />;
  const { user, isSelf } = m;
  return (
    // A change to the account changes this page, the staff list and the security log.
    <RefreshViewProvider refresh={() => client.invalidateQueries({ queryKey: ADMIN_KEY })}>
      {/* Keyed by the account: the forms start from it again when the address names another one. */}
      <div key={user.id} className="space-y-8">
        <div>
          <Link href="/admin/users" className="text-sm underline">
            {t("backToStaff")}
          </Link>
          <h1 className="mt-2 text-2xl font-semibold">{user.email}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {user.disabledAt ? t("status.disabled") : t("status.active")} · {t(`roleName.${user.role}`)} · {t("user.createdAt")} <Time value={user.createdAt} />
          </p>
        </div>

        <section aria-labelledby="profile-heading" className="max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="profile-heading" className="mb-4 text-lg font-semibold">
            {t("user.profile")}
          </h2>
          <EditUserForm user={user} tenants={m.tenants} roles={m.roles} isSelf={isSelf} />
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
          <ResetPasswordForm id={user.id} email={user.email} isSelf={isSelf} minPasswordLength={m.minPasswordLength} />
        </section>
      </div>
    </RefreshViewProvider>
  );
}

function StaffUserLoading() {
  const t = useTranslations("admin.user");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-72 max-w-xl" />
      <Placeholder className="h-32 max-w-xl" />
      <Placeholder className="h-40 max-w-xl" />
    </PageLoading>
  );
}

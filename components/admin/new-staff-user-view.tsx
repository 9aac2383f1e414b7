"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import type { NewStaffUserModel } from "@/lib/read/new-staff-user";
import { readModel } from "@/lib/read/wire";
import { CreateUserForm } from "./create-user-form";
import { ADMIN_KEY, adminKeys } from "./query-keys";

/**
 * The create form, offering only what this admin may hand out (lib/read/new-staff-user.ts, from
 * /api/console/admin/users/new); the action and createStaffUser refuse the rest.
 */
export function NewStaffUserView() {
  const t = useTranslations("admin");
  const client = useQueryClient();
  const { data: m, error } = useQuery({
    queryKey: adminKeys.newUser(),
    queryFn: ({ signal }) => readModel<NewStaffUserModel>("/api/console/admin/users/new", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/admin/users/new", "users:manage");
  if (!m) return <NewStaffUserLoading />;
  return (
    <div className="space-y-6">
      <div>
        <Link href="/admin/users" className="text-sm underline">
          {t("backToStaff")}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t("newUser.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("newUser.subtitle")}</p>
      </div>
      {/* A new account changes the staff list and the security log: both are read again when next shown. */}
      <RefreshViewProvider refresh={() => client.invalidateQueries({ queryKey: ADMIN_KEY })}>
        <CreateUserForm tenants={m.tenants} roles={m.roles} minPasswordLength={m.minPasswordLength} />
      </RefreshViewProvider>
    </div>
  );
}

function NewStaffUserLoading() {
  const t = useTranslations("admin.newUser");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-96 max-w-xl" />
    </PageLoading>
  );
}

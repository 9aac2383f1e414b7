"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import type { StaffListModel } from "@/lib/read/staff";
import { readModel } from "@/lib/read/wire";
import { staffUserHref } from "@/lib/http/record-pages";
import { adminKeys } from "./query-keys";

const CHANGES = ["created", "updated", "disabled", "enabled", "password-reset"] as const;
type Change = (typeof CHANGES)[number];
const isChange = (value: string): value is Change => (CHANGES as readonly string[]).includes(value);

/**
 * The staff list: only the accounts this admin administers (those whose products are all within the
 * admin's own), read as one read model (lib/read/staff.ts) from /api/console/admin/users.
 */
export function StaffListView() {
  const t = useTranslations("admin");
  const keys = useListKeys();
  const { data: m, error } = useQuery({
    queryKey: adminKeys.users(),
    queryFn: ({ signal }) => readModel<StaffListModel>("/api/console/admin/users", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/admin/users", "users:manage");
  if (!m) return <StaffListLoading />;
  const change = (action: string) => {
    const name = action.replace(/^user\./, "");
    return isChange(name) ? t(`users.changes.${name}`) : action;
  };
  return (
    <div>
      <div className="flex items-center gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("users.title")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("users.subtitle")}</p>
        </div>
        <Link
          href="/admin/users/new"
          className="ml-auto rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        >
          {t("users.new")}
        </Link>
      </div>
      {m.users.length === 0 ? (
        <p className="mt-8 rounded border border-dashed border-slate-300 p-6 text-slate-600">
          {t.rich("users.empty", { code: (chunks) => <code>{chunks}</code> })}
        </p>
      ) : (
        <table className="mt-6 w-full border-collapse bg-white text-sm shadow-sm">
          <caption className="sr-only">{t("users.caption")}</caption>
          <thead>
            <tr className="border-b text-left text-slate-500">
              <th scope="col" className="p-3 font-medium">{t("users.columns.email")}</th>
              <th scope="col" className="p-3 font-medium">{t("users.columns.name")}</th>
              <th scope="col" className="p-3 font-medium">{t("users.columns.role")}</th>
              <th scope="col" className="p-3 font-medium">{t("users.columns.tenants")}</th>
              <th scope="col" className="p-3 font-medium">{t("users.columns.status")}</th>
              <th scope="col" className="p-3 font-medium">{t("users.columns.lastChange")}</th>
            </tr>
          </thead>
          <tbody ref={keys}>
            {m.users.map((user) => (
              <tr key={user.id} className="border-b last:border-0" data-testid={`staff-row-${user.email}`}>
                <td className="p-3">
                  <Link href={staffUserHref(user.id)} className="font-medium underline-offset-2 hover:underline">
                    {user.email}
                  </Link>
                </td>
                <td className="p-3">{user.name}</td>
                <td className="p-3">
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{t(`roleName.${user.role}`)}</span>
                </td>
                <td className="p-3 font-mono text-xs">
                  {user.tenantIds.length ? user.tenantIds.join(", ") : <span className="font-sans text-slate-400">{t("users.noTenants")}</span>}
                </td>
                <td className="p-3">
                  {user.disabledAt ? (
                    <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-700">{t("status.disabled")}</span>
                  ) : (
                    <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">{t("status.active")}</span>
                  )}
                </td>
                <td className="p-3 text-xs text-slate-600">
                  {user.lastChange ? (
                    <>
                      {t("users.lastChange", { action: change(user.lastChange.action), actor: user.lastChange.actor })}
                      <br />
                      <Time value={user.lastChange.at} />
                    </>
                  ) : (
                    <Time value={user.updatedAt} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function StaffListLoading() {
  const t = useTranslations("admin.users");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-64" />
    </PageLoading>
  );
}

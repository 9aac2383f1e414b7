"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ADMIN_KEY, adminKeys } from "@/components/admin/query-keys";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Time } from "@/components/ui/time";
import type { ApiKeysModel } from "@/lib/read/api-keys";
import { readModel } from "@/lib/read/wire";
import { CreateApiKeyForm, RevokeApiKeyButton } from "./api-key-forms";

/**
 * The API keys of the admin's products (lib/read/api-keys.ts, from /api/console/admin/api-keys):
 * made and revoked here. A new key's secret is shown once, from the create action's answer; the
 * read model never holds one.
 */
export function ApiKeysView() {
  const t = useTranslations("admin.apiKeys");
  const client = useQueryClient();
  const { data: m, error } = useQuery({
    queryKey: adminKeys.apiKeys(),
    queryFn: ({ signal }) => readModel<ApiKeysModel>("/api/console/admin/api-keys", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/admin/api-keys", "apikeys:manage");
  if (!m) return <ApiKeysLoading />;
  return (
    // A key made or revoked changes the list and the security log.
    <RefreshViewProvider refresh={() => client.invalidateQueries({ queryKey: ADMIN_KEY })}>
      <div className="space-y-6">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {t.rich("intro", {
              link: (chunks) => (
                <Link href="/admin/api-docs" className="underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        </div>
        <section className="rounded-lg border border-slate-200 bg-white p-5">
          {m.tenants.length === 0 ? <p className="text-sm text-slate-500">{t("noTenants")}</p> : <CreateApiKeyForm tenants={m.tenants} />}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-5">
          {m.keys.length === 0 ? (
            <p className="text-sm text-slate-500">{t("empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead className="text-left text-slate-500">
                <tr>
                  <th className="font-medium">{t("columns.product")}</th>
                  <th className="font-medium">{t("columns.name")}</th>
                  <th className="font-medium">{t("columns.prefix")}</th>
                  <th className="font-medium">{t("columns.created")}</th>
                  <th className="font-medium">{t("columns.lastUsed")}</th>
                  <th className="font-medium">{t("columns.status")}</th>
                </tr>
              </thead>
              <tbody>
                {m.keys.map((k) => (
                  <tr key={k.prefix} className="border-t border-slate-100">
                    <td className="py-1.5 font-mono">{k.tenantId}</td>
                    <td>{k.name}</td>
                    <td className="font-mono">oo_{k.prefix}_…</td>
                    <td>
                      <Time value={k.createdAt} /> <span className="text-xs text-slate-500">{t("createdBy", { actor: k.createdBy })}</span>
                    </td>
                    <td>{k.lastUsedAt ? <Time value={k.lastUsedAt} /> : <span className="text-slate-400">{t("never")}</span>}</td>
                    <td>{k.revokedAt ? <span className="text-slate-500">{t("revoked")}</span> : <RevokeApiKeyButton prefix={k.prefix} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </RefreshViewProvider>
  );
}

function ApiKeysLoading() {
  const t = useTranslations("admin.apiKeys");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-24" />
      <Placeholder className="h-48" />
    </PageLoading>
  );
}

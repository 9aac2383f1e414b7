import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { CreateApiKeyForm, RevokeApiKeyButton } from "@/components/api/api-key-forms";
import { Time } from "@/components/ui/time";
import { listApiKeys } from "@/lib/api/keys";
import { requireStaff } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.apiKeys");
  return { title: t("title") };
}

export default async function ApiKeysPage() {
  const staff = await requireStaff("apikeys:manage");
  const t = await getTranslations("admin.apiKeys");
  const keys = await listApiKeys(staff.tenantIds);
  return (
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
        {staff.tenantIds.length === 0 ? <p className="text-sm text-slate-500">{t("noTenants")}</p> : <CreateApiKeyForm tenants={staff.tenantIds} />}
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        {keys.length === 0 ? (
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
              {keys.map((k) => (
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
  );
}

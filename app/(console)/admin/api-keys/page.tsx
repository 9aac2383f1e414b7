import type { Metadata } from "next";
import Link from "next/link";
import { CreateApiKeyForm, RevokeApiKeyButton } from "@/components/api/api-key-forms";
import { Time } from "@/components/ui/time";
import { listApiKeys } from "@/lib/api/keys";
import { requireStaff } from "@/lib/auth/page";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const staff = await requireStaff("apikeys:manage");
  const keys = await listApiKeys(staff.tenantIds);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="mt-1 text-sm text-slate-600">
          Payment channels and game servers call the <Link href="/admin/api-docs" className="underline">integration API</Link> with these. A key acts for
          one product; only a hash of its secret is stored.
        </p>
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <CreateApiKeyForm tenants={staff.tenantIds} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        {keys.length === 0 ? (
          <p className="text-sm text-slate-500">No keys yet.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="font-medium">Product</th>
                <th className="font-medium">Name</th>
                <th className="font-medium">Key starts</th>
                <th className="font-medium">Created</th>
                <th className="font-medium">Last used</th>
                <th className="font-medium">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.prefix} className="border-t border-slate-100">
                  <td className="py-1.5 font-mono">{k.tenantId}</td>
                  <td>{k.name}</td>
                  <td className="font-mono">oo_{k.prefix}_…</td>
                  <td>
                    <Time value={k.createdAt} /> <span className="text-xs text-slate-500">by {k.createdBy}</span>
                  </td>
                  <td>{k.lastUsedAt ? <Time value={k.lastUsedAt} /> : <span className="text-slate-400">never</span>}</td>
                  <td>{k.revokedAt ? <span className="text-slate-500">revoked</span> : <RevokeApiKeyButton prefix={k.prefix} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

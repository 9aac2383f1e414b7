import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { ORDER_STATES } from "@/lib/orders/machine";
import { stateCounts } from "@/lib/orders/queries/state-counts";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const staff = await requireStaff();
  // Admins hold no order permissions: their home is the staff list.
  if (!can(staff.role, "orders:view")) redirect("/admin/users");
  const tenants = await stateCounts(staff.tenantIds);
  const t = await getTranslations("overview");
  const states = await getTranslations("state");
  return (
    <main>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("subtitle")}</p>
      {tenants.length === 0 ? (
        <p className="mt-8 rounded border border-dashed border-slate-300 p-6 text-slate-600">
          {t("empty")}
        </p>
      ) : (
        <table className="mt-6 w-full border-collapse bg-white text-sm shadow-sm">
          <thead>
            <tr className="border-b text-left text-slate-500">
              <th className="p-3 font-medium">{t("product")}</th>
              {ORDER_STATES.map((state) => (
                <th key={state} className="p-3 text-right font-medium">
                  <div className="font-mono">{state}</div>
                  <div className="text-xs font-normal">{states(state)}</div>
                </th>
              ))}
              <th className="p-3 text-right font-medium">{t("total")}</th>
            </tr>
          </thead>
          <tbody>
            {tenants.map((t) => (
              <tr key={t.tenantId} className="border-b last:border-0">
                <td className="p-3">
                  <div className="font-medium">{t.tenantName}</div>
                  <div className="font-mono text-xs text-slate-500">{t.tenantId}</div>
                </td>
                {ORDER_STATES.map((state) => (
                  <td key={state} className="p-3 text-right tabular-nums">
                    {t.byState[state].toLocaleString("en-US")}
                  </td>
                ))}
                <td className="p-3 text-right font-medium tabular-nums">{t.total.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

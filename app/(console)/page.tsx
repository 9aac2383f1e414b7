import { redirect } from "next/navigation";
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
  return (
    <main>
      <h1 className="text-2xl font-semibold">Order Ops</h1>
      <p className="mt-1 text-sm text-slate-600">Orders per state, per product, read live from the ledger.</p>
      {tenants.length === 0 ? (
        <p className="mt-8 rounded border border-dashed border-slate-300 p-6 text-slate-600">
          No products yet. Seed demo data with <code>npm run cli -- seed</code>.
        </p>
      ) : (
        <table className="mt-6 w-full border-collapse bg-white text-sm shadow-sm">
          <thead>
            <tr className="border-b text-left text-slate-500">
              <th className="p-3 font-medium">Product</th>
              {ORDER_STATES.map((state) => (
                <th key={state} className="p-3 text-right font-mono font-medium">
                  {state}
                </th>
              ))}
              <th className="p-3 text-right font-medium">total</th>
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

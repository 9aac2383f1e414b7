import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SearchBox } from "@/components/search/search-box";
import { ReviewDeadlineCard } from "@/components/refund-reviews/deadline-card";
import { UnsentRefundsCard } from "@/components/cases/unsent-refunds-card";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { caseCounts } from "@/lib/cases/queries/case-counts";
import { ORDER_STATES } from "@/lib/orders/machine";
import { stateCounts } from "@/lib/orders/queries/state-counts";
import { stuckByState, stuckCounts, sumCounts, type CappedCount } from "@/lib/orders/queries/stuck-counts";
import { STUCK_STATES } from "@/lib/orders/stuck";
import { pendingApprovalCounts } from "@/lib/overview/attention-counts";
import { ordersHref } from "@/lib/views/view-filters";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("overview") };
}

const CARD = "block rounded-lg border bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
const CELL_LINK = "rounded px-1 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-slate-900";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

// The start of an agent's day: the search box first (most questions start with an id someone
// pasted), then what needs a person (stuck orders, refunds waiting for approval), then orders per
// state per product. Every figure links to the list it counts.
export default async function HomePage() {
  const staff = await requireStaff();
  // Admins hold no order permissions: their home is the staff list.
  if (!can(staff.role, "orders:view")) redirect("/admin/users");
  const [tenants, stuck, approvals, cases] = await Promise.all([
    stateCounts(staff.tenantIds),
    stuckCounts(staff.tenantIds),
    pendingApprovalCounts(staff.tenantIds),
    caseCounts(staff.tenantIds),
  ]);
  const c = await getTranslations("cases.overview");
  const t = await getTranslations("overview");
  const states = await getTranslations("state");
  const stuckTotal = sumCounts(stuck.map((p) => p.total));
  const stuckPerState = stuckByState(stuck);
  const stuckOf = (tenantId: string) => stuck.find((p) => p.tenantId === tenantId)?.total ?? { count: 0, more: false };
  const approvalTotal = sum(Object.values(approvals));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("subtitle")}</p>
      </div>

      <section aria-labelledby="overview-search-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="overview-search-heading" className="mb-2 text-sm font-medium text-slate-700">
          {t("searchHeading")}
        </h2>
        <SearchBox id="overview-search" variant="page" />
      </section>

      <section aria-labelledby="overview-attention-heading">
        <h2 id="overview-attention-heading" className="sr-only">
          {t("attention")}
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="overview-attention">
          <Link href={ordersHref({ stuck: true })} className={`${CARD} ${stuckTotal.count > 0 ? "border-red-200" : "border-slate-200"}`} data-testid="overview-stuck">
            <span className="block text-sm text-slate-600">{t("stuck")}</span>
            <span className={`mt-1 block text-2xl font-semibold tabular-nums ${stuckTotal.count > 0 ? "text-red-700" : ""}`} data-testid="overview-stuck-count">
              <Count value={stuckTotal} />
            </span>
            <span className="mt-1 block text-xs text-slate-500">{t("stuckHint")}</span>
            {/* What the number is made of, in the queues' words (one tab per state there). */}
            <span className="mt-1 block text-xs text-slate-600" data-testid="overview-stuck-states">
              {STUCK_STATES.map((state) => `${states(state)} ${countText(stuckPerState[state])}`).join(" · ")}
            </span>
          </Link>
          {can(staff.role, "refunds:approve") ? (
            <Link href="/approvals" className={`${CARD} border-slate-200`} data-testid="overview-approvals">
              <ApprovalsCard total={approvalTotal} />
            </Link>
          ) : (
            <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="overview-approvals">
              <ApprovalsCard total={approvalTotal} />
            </div>
          )}
          <Link
            href="/queues?cases=overdue#cases"
            className={`${CARD} ${cases.overdue.total > 0 ? "border-red-200" : "border-slate-200"}`}
            data-testid="overview-cases"
          >
            <span className="block text-sm text-slate-600">{c("card")}</span>
            <span className={`mt-1 block text-2xl font-semibold tabular-nums ${cases.overdue.total > 0 ? "text-red-700" : ""}`}>
              <Count value={{ count: cases.overdue.total, more: cases.overdue.more }} />
            </span>
            <span className="mt-1 block text-xs text-slate-500">{c("hint", { open: cases.open.total })}</span>
          </Link>
          <ReviewDeadlineCard tenantIds={staff.tenantIds} />
          <UnsentRefundsCard tenantIds={staff.tenantIds} />
        </div>
      </section>

      {tenants.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">{t("tableCaption")}</caption>
            <thead>
              <tr className="border-b text-left text-slate-500">
                <th scope="col" className="p-3 font-medium">
                  {t("product")}
                </th>
                {ORDER_STATES.map((state) => (
                  <th key={state} scope="col" className="p-3 text-right font-medium">
                    <div className="font-mono">{state}</div>
                    <div className="text-xs font-normal">{states(state)}</div>
                  </th>
                ))}
                <th scope="col" className="p-3 text-right font-medium">
                  {t("total")}
                </th>
                <th scope="col" className="p-3 text-right font-medium">
                  {t("stuckColumn")}
                </th>
              </tr>
            </thead>
            <tbody>
              {tenants.map((tenant) => (
                <tr key={tenant.tenantId} className="border-b last:border-0">
                  <th scope="row" className="p-3 text-left font-normal">
                    <div className="font-medium">{tenant.tenantName}</div>
                    <div className="font-mono text-xs text-slate-500">{tenant.tenantId}</div>
                  </th>
                  {ORDER_STATES.map((state) => (
                    <td key={state} className="p-3 text-right tabular-nums">
                      <Link
                        href={ordersHref({ tenant: tenant.tenantId, state })}
                        className={CELL_LINK}
                        aria-label={t("countLabel", { count: tenant.byState[state], state: states(state), product: tenant.tenantName })}
                      >
                        {tenant.byState[state].toLocaleString("en-US")}
                      </Link>
                    </td>
                  ))}
                  <td className="p-3 text-right font-medium tabular-nums">
                    <Link href={ordersHref({ tenant: tenant.tenantId })} className={CELL_LINK}>
                      {tenant.total.toLocaleString("en-US")}
                    </Link>
                  </td>
                  <td className="p-3 text-right tabular-nums">
                    <Link
                      href={ordersHref({ tenant: tenant.tenantId, stuck: true })}
                      className={`${CELL_LINK} ${stuckOf(tenant.tenantId).count > 0 ? "font-medium text-red-700" : ""}`}
                      data-testid={`overview-stuck-${tenant.tenantId}`}
                    >
                      <Count value={stuckOf(tenant.tenantId)} />
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function countText(value: CappedCount): string {
  return `${value.count.toLocaleString("en-US")}${value.more ? "+" : ""}`;
}

function Count({ value }: { value: CappedCount }) {
  return <>{countText(value)}</>;
}

async function ApprovalsCard({ total }: { total: number }) {
  const t = await getTranslations("overview");
  return (
    <>
      <span className="block text-sm text-slate-600">{t("approvals")}</span>
      <span className="mt-1 block text-2xl font-semibold tabular-nums">{total.toLocaleString("en-US")}</span>
      <span className="mt-1 block text-xs text-slate-500">{t("approvalsHint")}</span>
    </>
  );
}

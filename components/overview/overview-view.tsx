"use client";

import { useQuery } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import { useTranslations } from "next-intl";
import { UnsentRefundsCard } from "@/components/cases/unsent-refunds-card";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { useMe } from "@/components/navigation/console-frame";
import { ReviewDeadlineCard } from "@/components/refund-reviews/deadline-card";
import { SearchBox } from "@/components/search/search-box";
import { Alert } from "@/components/ui/alert";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Time } from "@/components/ui/time";
import { can } from "@/lib/auth/permissions";
import { ORDER_STATES } from "@/lib/orders/machine";
import type { CappedCount } from "@/lib/orders/queries/stuck-counts";
import { STUCK_STATES } from "@/lib/orders/stuck";
import type { OverviewModel } from "@/lib/read/overview";
import { readModel } from "@/lib/read/wire";
import { ordersHref } from "@/lib/views/view-filters";

const CARD = "block rounded-lg border bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
const CELL_LINK = "rounded px-1 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-slate-900";

/**
 * The start of an agent's day: the search box first (most questions start with an id someone
 * pasted), then what needs a person (stuck orders, refunds waiting for approval, overdue cases,
 * reviews near their deadline, refunds that never left), then orders per state per product. Every
 * figure links to the list it counts. Its read model (lib/read/overview.ts) comes from
 * /api/console/overview; admins, who hold no order permissions, are sent to the staff list.
 */
export function OverviewView() {
  const t = useTranslations("overview");
  const c = useTranslations("cases.overview");
  const states = useTranslations("state");
  const { data: me } = useMe();
  const seesOrders = me !== undefined && can(me.role, "orders:view");
  const { data: m, error } = useQuery({
    queryKey: ["overview"],
    queryFn: ({ signal }) => readModel<OverviewModel>("/api/console/overview", signal),
    enabled: seesOrders,
    retry: retryRead,
  });
  if (me !== undefined && !seesOrders) redirect("/admin/users");
  if (error) showReadRefusal(error, "/", "orders:view");
  if (!m) return <OverviewLoading />;
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

      {m.failingEndpoints.length > 0 ? <FailingEndpoints endpoints={m.failingEndpoints} minutes={m.failingAfterMinutes} /> : null}

      <section aria-labelledby="overview-attention-heading">
        <h2 id="overview-attention-heading" className="sr-only">
          {t("attention")}
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="overview-attention">
          <Link href={ordersHref({ stuck: true })} className={`${CARD} ${m.stuck.count > 0 ? "border-red-200" : "border-slate-200"}`} data-testid="overview-stuck">
            <span className="block text-sm text-slate-600">{t("stuck")}</span>
            <span className={`mt-1 block text-2xl font-semibold tabular-nums ${m.stuck.count > 0 ? "text-red-700" : ""}`} data-testid="overview-stuck-count">
              <Count value={m.stuck} />
            </span>
            <span className="mt-1 block text-xs text-slate-500">{t("stuckHint")}</span>
            {/* What the number is made of, in the queues' words (one tab per state there). */}
            <span className="mt-1 block text-xs text-slate-600" data-testid="overview-stuck-states">
              {STUCK_STATES.map((state) => `${states(state)} ${countText(m.stuckPerState[state])}`).join(" · ")}
            </span>
          </Link>
          {m.canApprove ? (
            <Link href="/approvals" className={`${CARD} border-slate-200`} data-testid="overview-approvals">
              <ApprovalsCard total={m.approvals} />
            </Link>
          ) : (
            <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="overview-approvals">
              <ApprovalsCard total={m.approvals} />
            </div>
          )}
          <Link
            href="/queues?cases=overdue#cases"
            className={`${CARD} ${m.cases.overdue.total > 0 ? "border-red-200" : "border-slate-200"}`}
            data-testid="overview-cases"
          >
            <span className="block text-sm text-slate-600">{c("card")}</span>
            <span className={`mt-1 block text-2xl font-semibold tabular-nums ${m.cases.overdue.total > 0 ? "text-red-700" : ""}`}>
              <Count value={{ count: m.cases.overdue.total, more: m.cases.overdue.more }} />
            </span>
            <span className="mt-1 block text-xs text-slate-500">{c("hint", { open: m.cases.open.total })}</span>
          </Link>
          <ReviewDeadlineCard near={m.reviewsNearDeadline} />
          <UnsentRefundsCard unsent={m.unsentRefunds} />
        </div>
      </section>

      {m.products.length === 0 ? (
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
              {m.products.map((tenant) => (
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
                      className={`${CELL_LINK} ${tenant.stuck.count > 0 ? "font-medium text-red-700" : ""}`}
                      data-testid={`overview-stuck-${tenant.tenantId}`}
                    >
                      <Count value={tenant.stuck} />
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

function ApprovalsCard({ total }: { total: number }) {
  const t = useTranslations("overview");
  return (
    <>
      <span className="block text-sm text-slate-600">{t("approvals")}</span>
      <span className="mt-1 block text-2xl font-semibold tabular-nums">{total.toLocaleString("en-US")}</span>
      <span className="mt-1 block text-xs text-slate-500">{t("approvalsHint")}</span>
    </>
  );
}

function OverviewLoading() {
  const t = useTranslations("overview");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-24" />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: 3 }, (_, i) => (
          <Placeholder key={i} className="h-28" />
        ))}
      </div>
      <Placeholder className="h-40" />
    </PageLoading>
  );
}

/** Webhook endpoints failing every attempt for more than `minutes`: a game server is not hearing us. */
function FailingEndpoints({ endpoints, minutes }: { endpoints: OverviewModel["failingEndpoints"]; minutes: number }) {
  const t = useTranslations("overview.failingEndpoints");
  return (
    <Alert tone="warning">
      <span className="font-medium">{t("title", { minutes })}</span>
      <ul className="mt-1 space-y-1" data-testid="overview-failing-endpoints">
        {endpoints.map((e) => (
          <li key={`${e.tenantId} ${e.url}`}>
            <Link href={`/deliveries?tenant=${encodeURIComponent(e.tenantId)}&status=retrying`} className="underline-offset-2 hover:underline">
              <span className="font-mono">{e.tenantId}</span> · <span className="break-all font-mono">{e.url}</span>
            </Link>{" "}
            {t("since")} <Time value={e.failingSince} />
          </li>
        ))}
      </ul>
    </Alert>
  );
}

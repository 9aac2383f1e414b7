import { getTranslations } from "next-intl/server";
import { can } from "@/lib/auth/permissions";
import { actorOf, type Staff } from "@/lib/auth/staff";
import { isActive } from "@/lib/cases/model";
import { listAssignees } from "@/lib/cases/queries/assignees";
import { loadCaseReasons } from "@/lib/cases/queries/case-reasons";
import { loadOrderCases } from "@/lib/cases/queries/order-cases";
import type { OrderSnapshot } from "@/lib/orders/types";
import { CaseCard } from "./case-card";
import { CaseNoticeArea } from "./case-notice";
import { CaseReasonsProvider } from "./case-reasons";

/**
 * The order page's cases, at the top: the open ones with what can be done about them, the closed
 * ones folded away below. For the order the page has already resolved through its scope rule.
 */
export async function OrderCases({ order, staff }: { order: Pick<OrderSnapshot, "tenantId" | "id">; staff: Staff }) {
  const me = actorOf(staff);
  const cases = await loadOrderCases(order.tenantId, order.id, { actor: me, role: staff.role });
  if (cases.length === 0) return null;
  const works = can(staff.role, "cases:work");
  const [assignees, reasons] = works ? await Promise.all([listAssignees([order.tenantId]), loadCaseReasons([order.tenantId])]) : [[], {}];
  const t = await getTranslations("cases.order");
  const active = cases.filter((c) => isActive(c.status));
  const closed = cases.filter((c) => !isActive(c.status));
  return (
    <section
      aria-labelledby="order-cases-heading"
      className={`rounded-lg border p-5 ${active.length > 0 ? "border-red-200 bg-red-50" : "border-slate-200 bg-white"}`}
      data-testid="order-cases"
    >
      <h2 id="order-cases-heading" className={`font-semibold ${active.length > 0 ? "text-red-900" : ""}`}>
        {active.length > 0 ? t("open", { count: active.length }) : t("none")}
      </h2>
      <CaseReasonsProvider reasons={reasons}>
        <CaseNoticeArea>
          {active.length > 0 ? (
            <div className="mt-3 space-y-3">
              {active.map((c) => (
                <CaseCard key={c.id} view={c} assignees={assignees} me={me} />
              ))}
            </div>
          ) : null}
          {closed.length > 0 ? (
            <details className="mt-3">
              <summary className="cursor-pointer text-sm text-slate-700">{t("closed", { count: closed.length })}</summary>
              <div className="mt-2 space-y-2">
                {closed.map((c) => (
                  <CaseCard key={c.id} view={c} assignees={assignees} me={me} />
                ))}
              </div>
            </details>
          ) : null}
        </CaseNoticeArea>
      </CaseReasonsProvider>
    </section>
  );
}

import { useTranslations } from "next-intl";
import { isActive } from "@/lib/cases/model";
import type { OrderPageModel } from "@/lib/read/order-page";
import { CaseCard } from "./case-card";
import { CaseNoticeArea } from "./case-notice";
import { CaseReasonsProvider } from "./case-reasons";

/**
 * The order page's cases, at the top: the open ones with what can be done about them, the closed
 * ones folded away below. Nothing when the order has none.
 */
export function OrderCases({ cases: { list: cases, assignees, reasons }, me }: { cases: OrderPageModel["cases"]; me: string }) {
  const t = useTranslations("cases.order");
  if (cases.length === 0) return null;
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

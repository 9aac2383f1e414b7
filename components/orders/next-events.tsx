import { useLocale, useTranslations } from "next-intl";
import { canTrigger, rolesTriggering, type Role } from "@/lib/auth/permissions";
import { availableEvents, type OrderState } from "@/lib/orders/machine";
import { useDescribeProblem } from "./names";

/**
 * "What can this order do next, and why not X?" — every event, legal or not, with the reason. A
 * legal event the viewer may not trigger says who can ("ops and managers only"), so nobody reads
 * "legal now" as "I can do it" and hunts for a button that is not there.
 */
export function NextEvents({ state, role }: { state: OrderState; role: Role }) {
  const t = useTranslations("orderPage");
  const events = useTranslations("event");
  const roles = useTranslations("roles");
  const locale = useLocale();
  const describe = useDescribeProblem();
  const all = availableEvents(state);
  const legal = all.filter((e) => e.allowed);
  const refused = all.flatMap((e) => (e.allowed ? [] : [e]));
  const who = (list: readonly Role[]) => new Intl.ListFormat(locale === "zh" ? "zh-CN" : "en-US", { type: "conjunction" }).format(list.map((r) => roles(r)));
  return (
    <div className="grid gap-4 text-sm md:grid-cols-2">
      <div>
        <h4 className="text-xs font-medium uppercase tracking-wide text-emerald-800">{t("allowed")}</h4>
        {legal.length === 0 ? <p className="text-slate-500">—</p> : null}
        <ul className="mt-1 space-y-1">
          {legal.map((e) => {
            const mine = canTrigger(role, e.event);
            const holders = rolesTriggering(e.event);
            return (
              <li key={e.event} data-testid={`next-${e.event}`}>
                <span className="font-mono">{e.event}</span> <span className="text-slate-600">{events(e.event)}</span>{" "}
                {mine ? null : (
                  <span className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                    {holders.length > 0 ? t("onlyRoles", { roles: who(holders) }) : t("notFromConsole")}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <div>
        <h4 className="text-xs font-medium uppercase tracking-wide text-slate-600">{t("notAllowed")}</h4>
        <ul className="mt-1 space-y-1">
          {refused.map((e) => (
            <li key={e.event} className="text-slate-700">
              <span className="font-mono">{e.event}</span> <span className="text-slate-600">{events(e.event)}</span>
              {/* The same refusal transit() would answer, worded for the reader (the API words it in English). */}
              <div className="text-xs text-slate-600">{describe(e.refusal)}</div>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

import { useTranslations } from "next-intl";
import { availableEvents, type OrderState } from "@/lib/orders/machine";
import { useDescribeProblem } from "./names";

/** "What can this order do next, and why not X?" — every event, legal or not, with the reason. */
export function NextEvents({ state }: { state: OrderState }) {
  const t = useTranslations("orderPage");
  const events = useTranslations("event");
  const describe = useDescribeProblem();
  const all = availableEvents(state);
  const legal = all.filter((e) => e.allowed);
  const refused = all.flatMap((e) => (e.allowed ? [] : [e]));
  return (
    <div className="space-y-3 text-sm">
      <div>
        <h3 className="text-xs font-medium uppercase tracking-wide text-emerald-700">{t("allowed")}</h3>
        {legal.length === 0 ? <p className="text-slate-500">—</p> : null}
        <ul className="mt-1 space-y-0.5">
          {legal.map((e) => (
            <li key={e.event}>
              <span className="font-mono">{e.event}</span> <span className="text-slate-500">{events(e.event)}</span>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{t("notAllowed")}</h3>
        <ul className="mt-1 space-y-1">
          {refused.map((e) => (
            <li key={e.event} className="text-slate-600">
              <span className="font-mono">{e.event}</span> <span className="text-slate-400">{events(e.event)}</span>
              {/* The same refusal transit() would answer, worded for the reader (the API words it in English). */}
              <div className="text-xs text-slate-500">{describe(e.refusal)}</div>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

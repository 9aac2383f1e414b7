import { useTranslations } from "next-intl";
import { availableEvents, type OrderState } from "@/lib/orders/machine";

/** "What can this order do next, and why not X?" — every event, legal or not, with the reason. */
export function NextEvents({ state }: { state: OrderState }) {
  const t = useTranslations("orderPage");
  const events = useTranslations("event");
  return (
    <ul className="grid gap-1 text-sm sm:grid-cols-2">
      {availableEvents(state).map((e) => (
        <li key={e.event} className={e.allowed ? "text-slate-900" : "text-slate-500"}>
          <span className={`mr-1 inline-block w-16 text-xs ${e.allowed ? "text-emerald-700" : ""}`}>{e.allowed ? t("allowed") : t("notAllowed")}</span>
          <span className="font-mono">{e.event}</span> <span className="text-xs">({events(e.event)})</span>
          {e.allowed ? null : <div className="ml-[4.25rem] text-xs">{e.reason}</div>}
        </li>
      ))}
    </ul>
  );
}

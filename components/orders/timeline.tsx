import { useTranslations } from "next-intl";
import type { TransitionRecord } from "@/lib/orders/types";
import { Time } from "@/components/ui/time";
import { SourceName } from "./names";
import { StateBadge } from "./state-badge";

/** The order's complete history, newest first. */
export function Timeline({ transitions }: { transitions: readonly TransitionRecord[] }) {
  const t = useTranslations("orderPage");
  const events = useTranslations("event");
  if (transitions.length === 0) return <p className="text-sm text-slate-500">{t("noTransitions")}</p>;
  return (
    <ol className="space-y-3" data-testid="timeline">
      {transitions.map((tr) => (
        <li key={tr.id} className="rounded border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <span className="font-mono font-semibold">{tr.event}</span>
            <span className="text-slate-600">{events(tr.event)}</span>
            <span className="inline-flex items-baseline gap-1 text-slate-600">
              <StateBadge state={tr.from} /> → <StateBadge state={tr.to} />
            </span>
            <span className="ml-auto text-xs">
              <Time value={tr.at} />
            </span>
          </div>
          <div className="mt-1 text-xs text-slate-600">
            {tr.actor} · <SourceName source={tr.source} />
            {tr.bizKey ? (
              <>
                {" "}
                · {t("bizKey")} <span className="font-mono">{tr.bizKey}</span>
              </>
            ) : null}
          </div>
          {tr.reason ? <p className="mt-1 text-slate-800">{t("quoted", { reason: tr.reason })}</p> : null}
        </li>
      ))}
    </ol>
  );
}

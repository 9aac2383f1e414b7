import type { TransitionRecord } from "@/lib/orders/types";
import { Time } from "@/components/ui/time";

/** The order's complete history, newest first. */
export function Timeline({ transitions }: { transitions: readonly TransitionRecord[] }) {
  if (transitions.length === 0) return <p className="text-sm text-slate-500">No transitions yet: the order was created and nothing has happened since.</p>;
  return (
    <ol className="space-y-3" data-testid="timeline">
      {transitions.map((t) => (
        <li key={t.id} className="rounded border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <span className="font-mono font-semibold">{t.event}</span>
            <span className="font-mono text-slate-600">
              {t.from} → {t.to}
            </span>
            <span className="ml-auto text-xs">
              <Time value={t.at} />
            </span>
          </div>
          <div className="mt-1 text-xs text-slate-600">
            {t.actor} · {t.source}
            {t.bizKey ? (
              <>
                {" "}
                · bizKey <span className="font-mono">{t.bizKey}</span>
              </>
            ) : null}
          </div>
          {t.reason ? <p className="mt-1 text-slate-800">“{t.reason}”</p> : null}
        </li>
      ))}
    </ol>
  );
}

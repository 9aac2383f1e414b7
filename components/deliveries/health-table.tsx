import { useTranslations } from "next-intl";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { EndpointHealth, WindowHealth } from "@/lib/deliveries/endpoint-health";

/** Per product and endpoint: success rate and p95 latency over the last hour and day, from the attempts log. */
export function HealthTable({ health }: { health: readonly EndpointHealth[] }) {
  const t = useTranslations("deliveries.health");
  if (health.length === 0) return <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t("none")}</p>;
  return (
    <Table
      caption={t("caption")}
      testId="endpoint-health"
      columns={[{ label: t("columns.endpoint") }, { label: t("columns.hour") }, { label: t("columns.day") }, { label: t("columns.state") }]}
    >
      <tbody>
        {health.map((h) => (
          <tr key={`${h.tenantId} ${h.url}`} className="border-b border-slate-100 align-top last:border-0" data-testid="endpoint-health-row">
            <td className="p-3">
              <div className="break-all font-mono text-xs">{h.url}</div>
              <div className="font-mono text-xs text-slate-600">{h.tenantId}</div>
            </td>
            <td className="p-3 text-sm">
              <Figures window={h.hour} />
            </td>
            <td className="p-3 text-sm">
              <Figures window={h.day} />
            </td>
            <td className="p-3 text-sm">
              {h.failingSince ? (
                <span className={h.failingTooLong ? "font-medium text-red-800" : "text-amber-800"}>
                  {t("failingSince")} <Time value={h.failingSince} />
                </span>
              ) : (
                <span className="text-emerald-800">{t("healthy")}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Figures({ window: w }: { window: WindowHealth }) {
  const t = useTranslations("deliveries.health");
  if (w.attempts === 0) return <span className="text-slate-600">{t("noAttempts")}</span>;
  return (
    <>
      <div>{t("rate", { percent: Math.round((100 * w.succeeded) / w.attempts), succeeded: w.succeeded, attempts: w.attempts })}</div>
      <div className="text-xs text-slate-600">{t("p95", { ms: w.p95LatencyMs ?? 0 })}</div>
    </>
  );
}

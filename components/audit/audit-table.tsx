import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { Breakable } from "@/components/ui/breakable";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import { SystemReasonText } from "@/components/orders/timeline-entry";
import type { AuditRow } from "@/lib/audit/queries/audit-row";
import { systemReason } from "@/lib/orders/system-reasons";
import { orderHref } from "@/lib/http/record-pages";
import { AuditFact, FactOrigin } from "./audit-fact";

/** A fact's order as a link, or its target ("order:tenant/orderNo" is a link too). */
function Subject({ row }: { row: AuditRow }) {
  if (row.tenantId !== null && row.orderNo !== null) {
    return (
      <Link href={orderHref(row.tenantId, row.orderNo)} className="font-mono underline-offset-2 hover:underline">
        <Breakable text={row.orderNo} />
      </Link>
    );
  }
  if (row.orderId !== null) return <span className="font-mono text-slate-500">#{row.orderId}</span>;
  const target = row.log === "action" ? row.target : null;
  if (!target) return <span className="text-slate-500">—</span>;
  const order = /^order:([^/]+)\/(.+)$/.exec(target);
  if (order) {
    return (
      <Link href={orderHref(order[1]!, order[2]!)} className="font-mono underline-offset-2 hover:underline">
        <Breakable text={order[2]!} />
      </Link>
    );
  }
  return (
    <span className="font-mono text-xs text-slate-600">
      <Breakable text={target} />
    </span>
  );
}

/** Why: as a person typed it, or the system's reason in the reader's language. */
function Reason({ row }: { row: AuditRow }) {
  const system = systemReason(row.actor, row.reason);
  if (system) return <SystemReasonText reason={system} />;
  return row.reason ? <span className="whitespace-pre-wrap break-words">{row.reason}</span> : <span className="text-slate-500">—</span>;
}

/** The explorer's rows (and the security log's, with `showIp`), newest first. */
export function AuditTable({ rows, actorHref, showIp = false }: { rows: readonly AuditRow[]; actorHref: (actor: string) => string; showIp?: boolean }) {
  const t = useTranslations("audit.table");
  const keys = useListKeys();
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full border-collapse text-sm" data-testid="audit-table">
        <caption className="sr-only">{t("caption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th scope="col" className="w-36 p-3 font-medium">{t("when")}</th>
            <th scope="col" className="p-3 font-medium">{t("tenant")}</th>
            <th scope="col" className="p-3 font-medium">{t("order")}</th>
            <th scope="col" className="p-3 font-medium">{t("what")}</th>
            <th scope="col" className="p-3 font-medium">{t("who")}</th>
            {showIp ? <th scope="col" className="p-3 font-medium">{t("ip")}</th> : null}
            <th scope="col" className="min-w-56 p-3 font-medium">{t("reason")}</th>
          </tr>
        </thead>
        <tbody ref={keys}>
          {rows.map((row) => (
            <tr key={row.cursor} className="border-b border-slate-100 align-top last:border-0" data-kind={row.kind ?? "action"}>
              {/* The time wraps (date, then its age) rather than taking the width the reason needs at 1366 px. */}
              <td className="w-36 p-3 text-xs">
                <Time value={row.at} />
              </td>
              <td className="p-3 font-mono text-xs">{row.tenantId ?? <span className="text-slate-500">—</span>}</td>
              <td className="p-3">
                <Subject row={row} />
              </td>
              <td className="max-w-sm p-3">
                <AuditFact row={row} />
              </td>
              <td className="p-3">
                <Link href={actorHref(row.actor)} className="font-mono text-xs underline-offset-2 hover:underline" title={t("filterActor")}>
                  <Breakable text={row.actor} />
                </Link>
                <div className="mt-0.5 text-xs text-slate-500">
                  <FactOrigin row={row} />
                </div>
              </td>
              {showIp ? <td className="p-3 font-mono text-xs">{row.log === "action" && row.ip ? row.ip : <span className="text-slate-500">—</span>}</td> : null}
              <td className="min-w-56 p-3 text-slate-800">
                <Reason row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

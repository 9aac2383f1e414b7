import { useTranslations } from "next-intl";
import { assertNever } from "@/lib/orders/machine";
import type { TakeBackPreviewData, TakeBackPreviewLine } from "@/lib/orders/take-back-preview";
import { LineKind } from "./taken-back-list";

/**
 * "What a refund takes back": shown in the request-refund and confirm-refund forms, so an agent
 * sees each line's rule and its effect before confirming — a debt or a call to the game cannot be
 * undone from here.
 */
export function TakeBackPreview({ preview }: { preview: TakeBackPreviewData }) {
  const t = useTranslations("takeBack");
  const missingEndpoint = !preview.revokeEndpointSet && preview.lines.some((l) => l.rule === "revoke" && l.units > 0);
  return (
    <div className="space-y-2" data-testid="take-back-preview">
      <table className="w-full border-collapse text-sm">
        <caption className="mb-1 text-left text-sm font-semibold text-slate-800">{t("preview.title")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("preview.sku")}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("preview.kind")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("preview.held")}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("preview.rule")}
            </th>
            <th scope="col" className="py-1 font-medium">
              {t("preview.effect")}
            </th>
          </tr>
        </thead>
        <tbody>
          {preview.lines.length === 0 ? (
            <tr>
              <td colSpan={5} className="py-2 text-slate-600">
                {t("preview.noLines")}
              </td>
            </tr>
          ) : null}
          {preview.lines.map((line) => (
            <tr key={line.sku} className="border-b border-slate-100 align-top last:border-0" data-testid={`take-back-preview-${line.sku}`}>
              <td className="py-1 pr-3 font-mono text-xs">{line.sku}</td>
              <td className="py-1 pr-3">
                <LineKind kind={line.kind} />
              </td>
              <td className="py-1 pr-3 text-right tabular-nums">{line.held}</td>
              <td className="py-1 pr-3">{line.rule ? t(`rules.${line.rule}`) : t("preview.noRule")}</td>
              <td className={`py-1 ${line.rule === null && line.units > 0 ? "text-red-700" : "text-slate-800"}`}>
                <Effect line={line} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {missingEndpoint ? (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900" data-testid="take-back-no-endpoint">
          {t("preview.noEndpoint")}
        </p>
      ) : null}
    </div>
  );
}

function Effect({ line }: { line: TakeBackPreviewLine }) {
  const t = useTranslations("takeBack.preview");
  if (line.units === 0) return <>{t("nothingHeld")}</>;
  if (line.rule === null) return <>{t("refused", { kind: line.kind })}</>;
  switch (line.rule) {
    case "revoke":
      return <>{t("revoke", { units: line.units })}</>;
    case "negative-balance":
      return <>{t("negativeBalance", { units: line.units, sku: line.sku })}</>;
    case "write-off":
      return <>{t("writeOff", { units: line.units })}</>;
    default:
      return assertNever(line.rule);
  }
}

import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ExceptionKindName, SourceName } from "@/components/orders/names";
import type { ActionRow, AuditRow } from "@/lib/audit/queries/audit-row";
import type { AuditKind } from "@/lib/audit/queries/kinds";
import { isKnownAction } from "@/lib/audit/queries/kinds";
import { isResolution } from "@/lib/cases/model";
import { formatMoney } from "@/lib/format";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { assertNever } from "@/lib/orders/machine";
import type { Problem } from "@/lib/problems";
import { REINSTATE_GRANT_PREFIX } from "@/lib/orders/grant-decision";

// What one audit fact says, in the reader's language: shared by the explorer and the security log.
// Words come from the catalogue (audit.*); names the teams grep for (events, actions, SKUs, grant
// ids) stay visible in monospace beside them. Works in server and client components alike.

const KIND_TONE: Readonly<Record<AuditKind, string>> = {
  transition: "bg-sky-100 text-sky-900",
  grant: "bg-emerald-100 text-emerald-900",
  note: "bg-amber-100 text-amber-900",
  approval: "bg-violet-100 text-violet-900",
  case: "bg-red-100 text-red-900",
  refund: "bg-orange-100 text-orange-900",
  "take-back": "bg-rose-100 text-rose-900",
  "refund-review": "bg-purple-100 text-purple-900",
  store: "bg-blue-100 text-blue-900",
  webhook: "bg-lime-100 text-lime-900",
  bulk: "bg-teal-100 text-teal-900",
  settings: "bg-slate-200 text-slate-900",
  staff: "bg-indigo-100 text-indigo-900",
  apikey: "bg-fuchsia-100 text-fuchsia-900",
  "sign-in": "bg-cyan-100 text-cyan-900",
  access: "bg-red-100 text-red-900",
  audit: "bg-stone-200 text-stone-900",
};

export function KindBadge({ kind }: { kind: AuditKind | null }) {
  const t = useTranslations("audit.kinds");
  if (kind === null) return null;
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${KIND_TONE[kind]}`}>{t(kind)}</span>;
}

const mono = "font-mono text-xs";

/** A value of a detail object as data: text as it is, anything else as JSON. */
function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const num = (v: unknown) => (typeof v === "number" ? v : 0);

/** Before → after, field by field for objects (a staff account's role and scope), whole otherwise. */
function Change({ before, after, money }: { before: unknown; after: unknown; money?: (v: unknown) => string }) {
  const format = money ?? show;
  const objects = typeof before === "object" && before !== null && typeof after === "object" && after !== null && !Array.isArray(before);
  const pairs: [string | null, unknown, unknown][] = objects
    ? [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((k): [string, unknown, unknown][] => {
        const b = (before as Record<string, unknown>)[k];
        const a = (after as Record<string, unknown>)[k];
        return JSON.stringify(b) === JSON.stringify(a) ? [] : [[k, b, a]];
      })
    : [[null, before, after]];
  return (
    <span className="flex flex-col">
      {pairs.map(([field, b, a], i) => (
        <span key={field ?? i} className={mono}>
          {field ? <span className="text-slate-500">{field}: </span> : null}
          {b === undefined ? null : (
            <>
              <span className="text-red-700 line-through decoration-red-300">{format(b)}</span> →{" "}
            </>
          )}
          <span className="text-emerald-800">{a === undefined ? "—" : format(a)}</span>
        </span>
      ))}
    </span>
  );
}

/** The rest of a detail, as compact key: value pairs (data, not words); empty values say nothing and are left out. */
function Pairs({ detail, skip }: { detail: Readonly<Record<string, unknown>>; skip: readonly string[] }) {
  const text = Object.entries(detail)
    .filter(([k, v]) => !skip.includes(k) && v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k}: ${show(v)}`)
    .join(" · ");
  return text ? <div className={`${mono} text-slate-600`}>{text.length > 160 ? `${text.slice(0, 159)}…` : text}</div> : null;
}

function ActionFact({ row }: { row: ActionRow }) {
  const t = useTranslations("audit.facts");
  const actions = useTranslations("audit.actions");
  const root = useTranslations() as unknown as Translate;
  const resolutions = useTranslations("cases.resolutions");
  const locale = useLocale();
  const d = row.detail;
  const money = (v: unknown) => (typeof v === "number" && row.currency ? formatMoney(v, row.currency, locale) : show(v));
  let said: ReactNode = null;
  let skip: string[] = ["reason"];
  if (row.kind === "case" && typeof d.kind === "string") {
    // A case's kind and the way out chosen, in words; the names stay beside them as data.
    said = (
      <>
        <ExceptionKindName kind={d.kind} />
        {typeof d.resolution === "string" ? (
          <>
            {" · "}
            {isResolution(d.resolution) ? resolutions(d.resolution) : null} <span className={`${mono} text-slate-500`}>{d.resolution}</span>
          </>
        ) : null}
      </>
    );
    skip = ["reason", "kind", "resolution"];
  }
  switch (row.action) {
    case "approval.requested":
      said = t("approvalRequested", { id: show(d.approvalId), amount: money(d.amount) });
      skip = ["reason", "approvalId", "amount"];
      break;
    case "approval.approved":
    case "approval.rejected":
      said = (
        <>
          {t("approvalDecided", { id: show(d.approvalId), requestedBy: show(d.requestedBy) })}
          {d.refusal && typeof d.refusal === "object" ? (
            <div className="text-red-800">{t("approvalNotApplied", { problem: describeProblem(d.refusal as Problem, root, isLocale(locale) ? locale : DEFAULT_LOCALE) })}</div>
          ) : null}
        </>
      );
      skip = ["reason", "approvalId", "requestedBy", "refusal"];
      break;
    case "bulk.previewed":
      said = t("bulkPreviewed", { orders: num(d.orders), willApply: num(d.willApply) });
      skip = ["batchId", "orders", "willApply"];
      break;
    case "bulk.started":
      said = d.rerun ? t("bulkRerun", { orders: num(d.orders), retried: num(d.retried) }) : t("bulkStarted", { orders: num(d.orders) });
      skip = ["reason", "batchId", "orders", "rerun", "retried"];
      break;
    case "bulk.finished":
      said = t("bulkFinished", { total: num(d.total), applied: num(d.applied), nothing: num(d["nothing-to-do"]), refused: num(d.refused), failed: num(d.failed) });
      skip = ["batchId", "total", "pending", "applied", "nothing-to-do", "refused", "failed"];
      break;
    case "sign-in.failed":
      if (d.why === "unknown-email" || d.why === "wrong-password" || d.why === "disabled") {
        said = t(`signInWhy.${d.why}`);
        skip = ["why"];
      }
      break;
    case "sign-in.locked":
      if (typeof d.failures === "number") {
        said = t("signInLocked", { failures: d.failures, minutes: Math.max(1, Math.ceil(num(d.retryAfterSeconds) / 60)) });
        skip = ["failures", "windowSeconds", "retryAfterSeconds"];
      }
      break;
  }
  const changed = "before" in d || "after" in d;
  if (changed) skip = [...skip, "before", "after", "currency"];
  const settingsMoney = d.field === "refund_approval_amount" && typeof d.currency === "string" ? (v: unknown) => (typeof v === "number" ? formatMoney(v, d.currency as string, locale) : show(v)) : undefined;
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{isKnownAction(row.action) ? actions(row.action) : null}</span>
        <span className={`${mono} text-slate-500`}>{row.action}</span>
      </div>
      {said ? <div className="text-slate-700">{said}</div> : null}
      {changed ? <Change before={d.before} after={d.after} {...(settingsMoney ? { money: settingsMoney } : {})} /> : null}
      <Pairs detail={d} skip={skip} />
    </>
  );
}

/** The "what" of any fact. */
export function AuditFact({ row }: { row: AuditRow }) {
  const t = useTranslations("audit.facts");
  const events = useTranslations("event");
  switch (row.log) {
    case "transition":
      return (
        <>
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium">{events(row.event)}</span>
            <span className={`${mono} font-semibold`}>{row.event}</span>
          </div>
          <div className={`${mono} text-slate-600`}>
            {row.from} → {row.to}
          </div>
          {row.bizKey ? (
            <div className="text-xs text-slate-500">
              {t("bizKey")} <span className="font-mono">{row.bizKey}</span>
            </div>
          ) : null}
        </>
      );
    case "grant":
      return (
        <>
          <div>
            {row.quantity < 0
              ? t("reversed", { sku: row.sku, quantity: -row.quantity })
              : row.grantId.startsWith(REINSTATE_GRANT_PREFIX)
                ? t("givenBack", { sku: row.sku, quantity: row.quantity })
                : t("granted", { sku: row.sku, quantity: row.quantity })}
          </div>
          <div className={`${mono} text-slate-500`}>{row.grantId}</div>
        </>
      );
    case "note":
      return (
        <>
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium">{t("note", { id: row.id })}</span>
            {row.correctsId !== null ? <span className="text-xs text-slate-500">{t("corrects", { id: row.correctsId })}</span> : null}
          </div>
          <p className="whitespace-pre-wrap break-words text-slate-800">{row.body.length > 400 ? `${row.body.slice(0, 399)}…` : row.body}</p>
        </>
      );
    case "action":
      return <ActionFact row={row} />;
    default:
      return assertNever(row);
  }
}

/** Where a fact came from: a transition's or grant's source, or the kind of the other facts. */
export function FactOrigin({ row }: { row: AuditRow }) {
  if (row.log === "transition" || row.log === "grant") return <SourceName source={row.source} />;
  return <KindBadge kind={row.kind} />;
}

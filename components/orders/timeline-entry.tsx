import { useLocale, useTranslations } from "next-intl";
import { REINSTATE_GRANT_PREFIX } from "@/lib/orders/grant-decision";
import { Time } from "@/components/ui/time";
import { isKnownAction } from "@/lib/audit/queries/kinds";
import { isResolution } from "@/lib/cases/model";
import { formatMoney, wholeUnit } from "@/lib/format";
import { assertNever } from "@/lib/orders/machine";
import type { SystemReason } from "@/lib/orders/system-reasons";
import type { TimelineEntry, TimelineKind } from "@/lib/orders/timeline";
import { EventName, ExceptionKindName, SourceName, useDescribeProblem } from "./names";
import { StateBadge } from "./state-badge";

// One entry of the order timeline: an icon per kind, a one-line headline, who/where/when, the
// reason, and the rest on demand (<details>). Words from the catalogue (orderPage.timeline); contract
// names (events, SKUs, grant ids, topics) stay as data in monospace.

const ICON: Readonly<Record<TimelineKind, { readonly glyph: string; readonly tone: string }>> = {
  transition: { glyph: "→", tone: "bg-sky-600" },
  grant: { glyph: "+", tone: "bg-emerald-600" },
  approval: { glyph: "✓", tone: "bg-violet-600" },
  exception: { glyph: "!", tone: "bg-red-600" },
  outbox: { glyph: "↗", tone: "bg-slate-500" },
  note: { glyph: "✎", tone: "bg-amber-500" },
  action: { glyph: "•", tone: "bg-stone-500" },
};

const mono = "font-mono text-xs";

function Headline({ entry, currency }: { entry: TimelineEntry; currency: string }) {
  const t = useTranslations("orderPage.timeline");
  const actions = useTranslations("audit.actions");
  const describe = useDescribeProblem();
  const locale = useLocale();
  const money = (minor: number) => formatMoney(minor, currency, locale);
  switch (entry.kind) {
    case "transition":
      return (
        <span className="inline-flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <EventName event={entry.event} />
          <span className="inline-flex items-baseline gap-1">
            <StateBadge state={entry.from} /> → <StateBadge state={entry.to} />
          </span>
        </span>
      );
    case "grant":
      return (
        <span className={entry.quantity < 0 ? "text-red-800" : ""}>
          {entry.quantity < 0
            ? t("reversed", { sku: entry.sku, quantity: -entry.quantity })
            : entry.grantId.startsWith(REINSTATE_GRANT_PREFIX)
              ? t("givenBack", { sku: entry.sku, quantity: entry.quantity })
              : t("granted", { sku: entry.sku, quantity: entry.quantity })}
        </span>
      );
    case "approval":
      if (entry.step === "requested") return <span>{t("approvalRequested", { id: entry.approvalId, amount: money(entry.amount) })}</span>;
      if (entry.refusal) return <span className="text-red-800">{t("approvalNotApplied", { id: entry.approvalId, problem: describe(entry.refusal) })}</span>;
      return <span>{entry.step === "approved" ? t("approvalApproved", { id: entry.approvalId }) : t("approvalRejected", { id: entry.approvalId })}</span>;
    case "exception":
      return (
        <span className={entry.step === "filed" ? "text-red-800" : ""}>
          {t(`case.${entry.step}`)} <ExceptionKindName kind={entry.exceptionKind} />
        </span>
      );
    case "outbox": {
      const what = t(`outboxTo.${entry.recipient}`);
      switch (entry.delivery) {
        case "delivered":
          return <span>{t("outboxDelivered", { what, attempts: entry.attempts })}</span>;
        case "no-webhook":
          return <span className="text-slate-600">{t("outboxNoWebhook", { what })}</span>;
        case "dead":
          return <span className="text-red-800">{t("outboxDead", { what, attempts: entry.attempts })}</span>;
        case "retrying":
          return <span className="text-amber-800">{t("outboxRetrying", { what, attempts: entry.attempts })}</span>;
        case "queued":
          return <span>{t("outboxQueued", { what })}</span>;
        default:
          return assertNever(entry.delivery);
      }
    }
    case "note":
      return <span className="font-medium">{t("note", { number: entry.number })}</span>;
    case "action":
      // A known action reads as words (with the case's kind when the fact is about a case); the name
      // itself is in the details. One the code does not know is shown by its name.
      if (!isKnownAction(entry.action)) return <span className={`${mono} text-slate-600`}>{entry.action}</span>;
      return (
        <span className="inline-flex flex-wrap items-baseline gap-x-1">
          <span>{actions(entry.action)}</span>
          {typeof entry.detail.kind === "string" && entry.action.startsWith("case.") ? (
            <>
              <span aria-hidden>·</span>
              <ExceptionKindName kind={entry.detail.kind} />
            </>
          ) : null}
        </span>
      );
    default:
      return assertNever(entry);
  }
}

/** A reason the system wrote (English in the log), in the reader's language. */
export function SystemReasonText({ reason }: { reason: SystemReason }) {
  const t = useTranslations("orderPage.timeline.systemReasons");
  const durations = useTranslations("orders.duration");
  switch (reason.kind) {
    case "unpaid-timeout": {
      const { unit, count } = wholeUnit(reason.seconds);
      return <>{t("unpaid-timeout", { duration: durations(unit, { count }) })}</>;
    }
    case "granted-by-endpoint":
      return <>{t("granted-by-endpoint")}</>;
    default:
      return assertNever(reason);
  }
}

/** One fact the headline leaves out: a label and a value, shown as data, a time, an event or an error. */
interface Detail {
  readonly label: string;
  readonly value: string | number | Date;
  readonly as?: "data" | "text" | "time" | "event" | "error";
  /** The label is itself a machine name (a key of a fact's stored detail): shown as data. */
  readonly rawLabel?: boolean;
}

/** What the headline leaves out, shown on demand. */
function details(
  entry: TimelineEntry,
  t: ReturnType<typeof useTranslations<"orderPage.timeline">>,
  money: (minor: number) => string,
  resolutionName: (resolution: string) => string,
): Detail[] {
  // A fact's stored detail as data, without what the entry already says (the reason, a case's kind
  // in the headline) and without empty values: "previousOwner: null" tells a reader nothing.
  const pairs = (detail: Readonly<Record<string, unknown>>, skip: readonly string[] = []): Detail[] =>
    Object.entries(detail)
      .filter(([k, v]) => k !== "reason" && !skip.includes(k) && v !== null && v !== undefined && v !== "")
      .map(([k, v]): Detail =>
        k === "resolution" && typeof v === "string" ? { label: t("resolution"), value: resolutionName(v), as: "text" } : { label: k, value: typeof v === "string" ? v : JSON.stringify(v), rawLabel: true },
      );
  switch (entry.kind) {
    case "transition":
      // The key says what it is: the channel's payment transaction id for pay, its refund receipt for
      // the channel's answer to a refund; other keys (console forms, jobs) are just the business key.
      return entry.bizKey ? [{ label: t(entry.event === "pay" ? "paymentTransactionId" : entry.event === "confirm-refund" || entry.event === "reject-refund" ? "refundReceipt" : "bizKey"), value: entry.bizKey }] : [];
    case "grant":
      return [{ label: t("grantId"), value: entry.grantId }];
    case "approval":
      return entry.step === "approved" || entry.step === "rejected" ? [{ label: t("requestedBy"), value: entry.requestedBy }] : [];
    case "exception":
      if (entry.step !== "filed") return entry.resolution ? [{ label: t("resolution"), value: resolutionName(entry.resolution), as: "text" }] : [];
      return [
        ...(entry.event ? [{ label: t("event"), value: entry.event, as: "event" as const }] : []),
        ...(entry.bizKey ? [{ label: t("bizKey"), value: entry.bizKey }] : []),
        ...(entry.amount !== null ? [{ label: t("amount"), value: money(entry.amount), as: "text" as const }] : []),
        ...pairs(entry.detail),
      ];
    case "outbox":
      return [
        { label: t("topic"), value: entry.topic },
        { label: t("queuedAt"), value: entry.queuedAt, as: "time" },
        { label: t("attempts"), value: entry.attempts, as: "text" },
        // The relay's note on a message it never sent is the headline already, and English.
        ...(entry.lastError && entry.delivery !== "no-webhook" ? [{ label: t("lastError"), value: entry.lastError, as: "error" as const }] : []),
      ];
    case "note":
      return [];
    case "action":
      return [
        { label: t("action"), value: entry.action },
        ...(entry.target ? [{ label: t("target"), value: entry.target }] : []),
        ...pairs(entry.detail, entry.action.startsWith("case.") ? ["kind"] : []),
      ];
    default:
      return assertNever(entry);
  }
}

function DetailValue({ detail }: { detail: Detail }) {
  const { value } = detail;
  if (value instanceof Date) return <Time value={value} />;
  switch (detail.as) {
    case "event":
      return <EventName event={String(value)} />;
    case "text":
      return <>{value}</>;
    case "error":
      return <span className={`${mono} text-red-700`}>{value}</span>;
    default:
      return <span className={mono}>{value}</span>;
  }
}

export function TimelineItem({ entry, currency, onCorrect }: { entry: TimelineEntry; currency: string; onCorrect?: ((note: { id: number; number: number; body: string }) => void) | undefined }) {
  const t = useTranslations("orderPage.timeline");
  const locale = useLocale();
  const icon = ICON[entry.kind];
  const resolutions = useTranslations("cases.resolutions");
  const more = details(entry, t, (minor) => formatMoney(minor, currency, locale), (r) => (isResolution(r) ? resolutions(r) : r));
  return (
    <li className="relative pb-4 pl-9 last:pb-0" data-kind={entry.kind} id={entry.kind === "note" ? `note-${entry.noteId}` : undefined}>
      <span className="absolute left-[11px] top-6 h-[calc(100%-1.25rem)] w-px bg-slate-200" aria-hidden />
      <span className={`absolute left-0 top-0.5 flex h-6 w-6 items-center justify-center rounded-full text-xs font-bold text-white ${icon.tone}`} aria-hidden>
        {icon.glyph}
      </span>
      <div className="flex flex-wrap items-baseline gap-x-3 text-sm">
        <Headline entry={entry} currency={currency} />
        <span className="ml-auto text-xs text-slate-500">
          <Time value={entry.at} />
        </span>
      </div>
      <div className="mt-0.5 text-xs text-slate-600">
        <span className="font-mono">{entry.actor ?? t("relay")}</span>
        {entry.source ? (
          <>
            {" · "}
            <SourceName source={entry.source} />
          </>
        ) : null}
      </div>
      {entry.kind === "note" ? (
        <div className="mt-1 space-y-1 text-sm">
          <p className="whitespace-pre-wrap break-words rounded bg-amber-50 px-2 py-1 text-slate-900">{entry.body}</p>
          <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
            {entry.correctsId !== null ? (
              <a href={`#note-${entry.correctsId}`} className="underline underline-offset-2">
                {t("corrects", { number: entry.correctsNumber ?? "?" })}
              </a>
            ) : null}
            {entry.correctedBy.map(({ id, number }) => (
              <a key={id} href={`#note-${id}`} className="text-amber-800 underline underline-offset-2">
                {t("correctedBy", { number })}
              </a>
            ))}
            {onCorrect ? (
              <button type="button" className="underline underline-offset-2 hover:text-slate-900" onClick={() => onCorrect({ id: entry.noteId, number: entry.number, body: entry.body })}>
                {t("correct")}
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      {entry.systemReason ? (
        <p className="mt-1 text-sm text-slate-800">
          <SystemReasonText reason={entry.systemReason} />
        </p>
      ) : entry.reason ? (
        <p className="mt-1 text-sm text-slate-800">{t("quoted", { reason: entry.reason })}</p>
      ) : null}
      {more.length > 0 ? (
        <details className="mt-1 text-xs text-slate-600">
          <summary className="cursor-pointer select-none text-slate-500 hover:text-slate-800">{t("details")}</summary>
          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
            {more.map((detail, i) => (
              <div key={i} className="contents">
                <dt className={detail.rawLabel ? `${mono} text-slate-600` : "text-slate-600"}>{detail.label}</dt>
                <dd>
                  <DetailValue detail={detail} />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </li>
  );
}

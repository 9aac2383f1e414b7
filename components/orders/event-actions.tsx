"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { triggerEvent, type TriggerEventOutcome } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/trigger-event";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { useShortcut } from "@/components/ui/keyboard";
import { SHORTCUT_KEYS } from "@/lib/keyboard/shortcuts";
import { formatMoney, parseMoney } from "@/lib/format";
import { needsChannelKey } from "@/lib/orders/console-event";
import { assertNever, isOrderState, type OrderEvent, type OrderState } from "@/lib/orders/machine";
import type { CannedReasons } from "@/lib/settings/canned-reasons";
import { ActionDialog } from "./action-dialog";
import { EventName, useDescribeProblem } from "./names";
import { StateBadge } from "./state-badge";
import type { TakeBackPreviewData } from "@/lib/orders/take-back-preview";
import { TakeBackPreview } from "./take-back-preview";

export interface EventActionsProps {
  readonly tenant: string;
  readonly orderNo: string;
  /** The order as the page shows it now; a form opened on it submits against this version. */
  readonly version: number;
  readonly state: OrderState;
  readonly currency: string;
  /** Legal now and whitelisted for the viewer's role: decided on the server. */
  readonly events: readonly OrderEvent[];
  /** The product's reasons to pick from, per event. */
  readonly cannedReasons: CannedReasons;
  /** What a refund would take back, line by line: shown in the refund forms before anyone confirms. */
  readonly takeBack?: TakeBackPreviewData | undefined;
  /** Set when a refund asked for here goes to a manager first: the product's approval amount (minor units). */
  readonly refundApproval?: { readonly amount: number } | undefined;
}

/**
 * One button per event the viewer may trigger now; each opens its own form. The open form is kept
 * here rather than beside its button: when the order moves (a stale answer, then a reload) its
 * button may go away, and the form with what was typed must not go with it. A form that did its
 * work closes, and what it did is said here, under the order's header that shows the change.
 */
export function EventActions(props: EventActionsProps) {
  const t = useTranslations("event");
  const [open, setOpen] = useState<OrderEvent | null>(null);
  const [done, setDone] = useState<TriggerEventOutcome | null>(null);
  const openForm = (event: OrderEvent) => {
    setDone(null);
    setOpen(event);
  };
  // "e": the first event legal now, as its button would.
  useShortcut("event", () => openForm(props.events[0]!), props.events.length > 0);
  return (
    <div className="flex flex-wrap gap-2">
      {props.events.map((event, i) => (
        <Button
          key={event}
          aria-keyshortcuts={i === 0 ? SHORTCUT_KEYS.event : undefined}
          variant={event === "close" || event === "request-refund" ? "secondary" : "primary"}
          onClick={() => openForm(event)}
          aria-haspopup="dialog"
        >
          {t(event)} <span className="font-mono text-xs opacity-70">{event}</span>
        </Button>
      ))}
      {open ? <EventDialog {...props} event={open} onClose={() => setOpen(null)} onFinished={setDone} /> : null}
      {done ? (
        <div className="basis-full" data-testid="event-outcome">
          <EventOutcome outcome={done} />
        </div>
      ) : null}
    </div>
  );
}

/** The events whose key is the channel's own id, each worded for what the channel calls it. */
type ChannelKeyEvent = "pay" | "confirm-refund" | "reject-refund";

export function EventDialog({
  tenant,
  orderNo,
  version: shownVersion,
  state,
  currency,
  events,
  cannedReasons,
  takeBack,
  refundApproval,
  event,
  onClose,
  onFinished,
}: EventActionsProps & { event: OrderEvent; onClose: () => void; onFinished?: (outcome: TriggerEventOutcome) => void }) {
  const t = useTranslations("eventForm");
  const all = useTranslations();
  const describe = useDescribeProblem();
  const locale = useLocale();
  const ackId = useId();
  // What the person saw when they opened the form: a newer order is `stale`, never overwritten.
  const [opened] = useState(shownVersion);
  const [version, setVersion] = useState(shownVersion);
  // After a stale answer the person asked to reload: the next version the page shows is the one
  // the form submits against from then on (they have now seen it).
  const [reloading, setReloading] = useState(false);
  if (reloading && shownVersion !== version) {
    setReloading(false);
    setVersion(shownVersion);
  }
  const [acknowledged, setAcknowledged] = useState(false);
  const channelKey = needsChannelKey(event) ? (event as ChannelKeyEvent) : null;
  const irreversible = event === "close";
  const refund = event === "request-refund" || event === "confirm-refund";
  // Said before Confirm, not after: this request goes to a manager, and nothing changes until one approves.
  const approval = event === "request-refund" && refundApproval ? refundApproval : null;

  return (
    <ActionDialog<TriggerEventOutcome>
      title={<EventName event={event} />}
      intro={
        irreversible ? (
          <Alert tone="error">{t("closeWarning")}</Alert>
        ) : refund && (takeBack || approval) ? (
          <div className="space-y-3">
            {approval ? (
              <div data-testid="needs-approval">
                <Alert tone="warning">{t("needsApproval", { amount: formatMoney(approval.amount, currency, locale) })}</Alert>
              </div>
            ) : null}
            {takeBack ? <TakeBackPreview preview={takeBack} /> : null}
          </div>
        ) : undefined
      }
      reasonLabel={t("reason")}
      cannedReasons={cannedReasons[event] ?? []}
      confirmLabel={approval ? t("submitForApproval") : t("submit", { event: all(`event.${event}`) })}
      confirmTestId="confirm-event"
      confirmDisabled={irreversible && !acknowledged}
      fields={(field) => (
        <>
          {channelKey
            ? field("channelKey", t(`channelKey.${channelKey}`), (props) => <Input {...props} required autoComplete="off" className="font-mono" />)
            : null}
          {event === "pay" ? field("amount", t("amountPaid", { currency }), (props) => <Input {...props} inputMode="decimal" required autoComplete="off" />) : null}
        </>
      )}
      send={async (form, idempotencyKey) => {
        const amount = event === "pay" ? parseMoney(String(form.get("amount") ?? "")) : null;
        if (event === "pay" && amount === null) {
          // Money is typed as a decimal and sent in minor units: what does not parse never leaves the form.
          const message = all("errors.invalid-input");
          return { ok: false, error: { code: "invalid-input", message, fields: { amount: [describe({ kind: "money-format" })] } } };
        }
        return triggerEvent({
          tenant,
          orderNo,
          event,
          idempotencyKey,
          expectedVersion: version,
          reason: String(form.get("reason") ?? ""),
          ...(channelKey ? { channelKey: String(form.get("channelKey") ?? "") } : {}),
          ...(amount !== null ? { amount } : {}),
        });
      }}
      outcome={(outcome) => <EventOutcome outcome={outcome} />}
      finished={(o) => ["applied", "duplicate", "approval-requested", "approval-pending"].includes(o.result)}
      {...(onFinished ? { onFinished } : {})}
      needsReload={(o) => o.result === "stale"}
      onReload={() => setReloading(true)}
      basis={version}
      notice={
        <>
          {irreversible ? (
            <div className="flex items-start gap-2 text-sm">
              <input id={ackId} type="checkbox" checked={acknowledged} onChange={(e) => setAcknowledged(e.target.checked)} className="mt-0.5 h-4 w-4" />
              <label htmlFor={ackId} className="text-slate-800">
                {t("closeAcknowledge")}
              </label>
            </div>
          ) : null}
          {version !== opened ? (
            <Alert tone={events.includes(event) ? "info" : "error"}>
              {t.rich(events.includes(event) ? "reloaded" : "reloadedNotLegal", { version, state: () => <StateBadge state={state} />, event: all(`event.${event}`) })}
            </Alert>
          ) : null}
        </>
      }
      onClose={onClose}
    />
  );
}

function StateName({ state }: { state: string }) {
  return isOrderState(state) ? <StateBadge state={state} /> : <span className="font-mono">{state}</span>;
}

/** What triggering the event did, in the UI's language; a refusal says why, a stale form says what changed. */
export function EventOutcome({ outcome: o }: { outcome: TriggerEventOutcome }) {
  const t = useTranslations("eventForm");
  const states = useTranslations("state");
  const describe = useDescribeProblem();
  switch (o.result) {
    case "applied":
      return <Alert tone="success">{t.rich("applied", { version: o.version, state: () => <StateName state={o.state} /> })}</Alert>;
    case "duplicate":
      return <Alert tone="info">{t.rich("duplicate", { state: () => <StateName state={o.state} /> })}</Alert>;
    case "approval-requested":
      return <Alert tone="success">{t("approvalRequested")}</Alert>;
    case "approval-pending":
      return <Alert tone="info">{t("approvalPending")}</Alert>;
    case "illegal":
      return <Alert tone="error">{t("illegal", { reason: describe(o.refusal) })}</Alert>;
    case "rejected":
      return <Alert tone="error">{t("rejected", { reason: describe(o.refusal) })}</Alert>;
    case "stale":
      return (
        <Alert tone="error">
          <p>{t("stale", { why: describe(o.refusal) })}</p>
          <ul className="mt-1 list-disc pl-5">
            {o.since.map((tr) => (
              <li key={tr.id}>
                <EventName event={tr.event} /> · {states(tr.from)} → {states(tr.to)} · <span className="font-mono text-xs">{tr.actor}</span>
              </li>
            ))}
          </ul>
          <p className="mt-1">{t("reloadHint")}</p>
        </Alert>
      );
    default:
      return assertNever(o);
  }
}

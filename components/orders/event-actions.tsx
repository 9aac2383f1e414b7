"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { triggerEvent, type TriggerEventOutcome } from "@/app/(console)/orders/[tenant]/[orderNo]/actions/trigger-event";
import { Alert } from "@/components/ui/alert";
import { Input } from "@/components/ui/field";
import { parseMoney } from "@/lib/format";
import { needsChannelKey } from "@/lib/orders/console-event";
import { assertNever, isOrderState, type OrderEvent } from "@/lib/orders/machine";
import { ActionDialog, DialogButton } from "./action-dialog";
import { EventName, useDescribeProblem } from "./names";
import { StateBadge } from "./state-badge";

export interface EventActionsProps {
  readonly tenant: string;
  readonly orderNo: string;
  readonly version: number;
  readonly currency: string;
  /** Legal now and whitelisted for the viewer's role: decided on the server. */
  readonly events: readonly OrderEvent[];
}

/** One button per event the viewer may trigger now; each opens its own form. */
export function EventActions(props: EventActionsProps) {
  const t = useTranslations("event");
  return (
    <div className="flex flex-wrap gap-2">
      {props.events.map((event) => (
        <DialogButton
          key={event}
          variant={event === "close" || event === "request-refund" ? "secondary" : "primary"}
          label={
            <>
              {t(event)} <span className="font-mono text-xs opacity-70">{event}</span>
            </>
          }
          dialog={(close) => <EventDialog {...props} event={event} onClose={close} />}
        />
      ))}
    </div>
  );
}

/** The events whose key is the channel's own id, each worded for what the channel calls it. */
type ChannelKeyEvent = "pay" | "confirm-refund" | "reject-refund";

export function EventDialog({ tenant, orderNo, version: shownVersion, currency, event, onClose }: EventActionsProps & { event: OrderEvent; onClose: () => void }) {
  const t = useTranslations("eventForm");
  const all = useTranslations();
  const describe = useDescribeProblem();
  // What the person saw when they opened the form: a newer order is `stale`, never overwritten.
  const [version] = useState(shownVersion);
  const channelKey = needsChannelKey(event) ? (event as ChannelKeyEvent) : null;

  return (
    <ActionDialog<TriggerEventOutcome>
      title={<EventName event={event} />}
      reasonLabel={t("reason")}
      confirmLabel={t("submit", { event: all(`event.${event}`) })}
      confirmTestId="confirm-event"
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
                <EventName event={tr.event} /> · {states(tr.from)} → {states(tr.to)} · {tr.actor}
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

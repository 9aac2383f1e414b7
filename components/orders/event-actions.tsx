"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { triggerEvent, type TriggerEventOutcome } from "@/app/(console)/orders/[tenant]/[orderNo]/actions/trigger-event";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { CHANNEL_KEY_EVENTS, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { isOrderState, type OrderEvent } from "@/lib/orders/machine";
import type { PublicError } from "@/lib/errors";
import { parseMoney } from "@/lib/format";

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
  const [open, setOpen] = useState<OrderEvent | null>(null);
  return (
    <div className="flex flex-wrap gap-2">
      {props.events.map((event) => (
        <Button key={event} variant={event === "close" || event === "request-refund" ? "secondary" : "primary"} onClick={() => setOpen(event)}>
          {t(event)} <span className="font-mono text-xs opacity-70">{event}</span>
        </Button>
      ))}
      {/* A fresh form (and so a fresh idempotency key) every time a form opens. */}
      {open ? <EventDialog key={open} {...props} event={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

type Shown = { kind: "outcome"; outcome: TriggerEventOutcome } | { kind: "error"; error: PublicError };

function EventDialog({ tenant, orderNo, version: shownVersion, currency, event, onClose }: EventActionsProps & { event: OrderEvent; onClose: () => void }) {
  const t = useTranslations("eventForm");
  const events = useTranslations("event");
  const states = useTranslations("state");
  const router = useRouter();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  // What the person saw when they opened the form: a newer order is `stale`, never overwritten.
  const [version] = useState(shownVersion);
  const [shown, setShown] = useState<Shown | null>(null);
  const [pending, startTransition] = useTransition();
  const channelKeyLabel = CHANNEL_KEY_EVENTS[event];

  function submit(form: FormData) {
    const amountText = String(form.get("amount") ?? "");
    const amount = event === "pay" ? parseMoney(amountText) : null;
    startTransition(async () => {
      const result = await triggerEvent({
        tenant,
        orderNo,
        event,
        idempotencyKey,
        expectedVersion: version,
        reason: String(form.get("reason") ?? ""),
        ...(channelKeyLabel ? { channelKey: String(form.get("channelKey") ?? "") } : {}),
        ...(amount !== null ? { amount } : {}),
      });
      setShown(result.ok ? { kind: "outcome", outcome: result.data } : { kind: "error", error: result.error });
    });
  }

  const done = shown?.kind === "outcome" && ["applied", "duplicate", "approval-requested", "approval-pending"].includes(shown.outcome.result);
  const fieldError = (name: string) => (shown?.kind === "error" ? shown.error.fields?.[name]?.[0] : undefined);

  return (
    <Dialog
      onClose={() => {
        onClose();
        router.refresh();
      }}
      title={
        <>
          {events(event)} <span className="font-mono text-sm text-slate-500">{event}</span>
        </>
      }
    >
      {(close) => (
        <form action={submit} className="space-y-4">
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <input type="hidden" name="expectedVersion" value={version} />
          {channelKeyLabel ? (
            <Field label={`${t("channelKey")}: ${channelKeyLabel}`} htmlFor="channelKey" error={fieldError("channelKey")}>
              <Input id="channelKey" name="channelKey" required autoComplete="off" className="font-mono" />
            </Field>
          ) : null}
          {event === "pay" ? (
            <Field label={t("amountPaid", { currency })} htmlFor="amount" error={fieldError("amount")}>
              <Input id="amount" name="amount" inputMode="decimal" required autoComplete="off" />
            </Field>
          ) : null}
          <Field label={t("reason")} htmlFor="reason" error={fieldError("reason")}>
            <textarea id="reason" name="reason" required minLength={MIN_REASON_LENGTH} maxLength={500} rows={3} autoFocus className={TEXTAREA} />
          </Field>

          {shown ? <Outcome shown={shown} stateLabel={(s) => (isOrderState(s) ? `${s} (${states(s)})` : s)} /> : null}

          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t("cancel")}
            </Button>
            {done ? null : (
              <Button type="submit" disabled={pending} data-testid="confirm-event">
                {pending ? t("working") : t("submit", { event: events(event) })}
              </Button>
            )}
          </div>
        </form>
      )}
    </Dialog>
  );
}

function Outcome({ shown, stateLabel }: { shown: Shown; stateLabel: (state: string) => string }) {
  const t = useTranslations("eventForm");
  if (shown.kind === "error") return <Alert tone="error">{t("error", { message: shown.error.message })}</Alert>;
  const o = shown.outcome;
  switch (o.result) {
    case "applied":
      return <Alert tone="success">{t("applied", { state: stateLabel(o.state), version: o.version })}</Alert>;
    case "duplicate":
      return <Alert tone="info">{t("duplicate", { state: stateLabel(o.state) })}</Alert>;
    case "approval-requested":
      return <Alert tone="success">{t("approvalRequested")}</Alert>;
    case "approval-pending":
      return <Alert tone="info">{t("approvalPending")}</Alert>;
    case "illegal":
      return <Alert tone="error">{t("illegal", { reason: o.reason })}</Alert>;
    case "rejected":
      return <Alert tone="error">{t("rejected", { reason: o.reason })}</Alert>;
    case "stale":
      return (
        <Alert tone="error">
          <p>{t("stale", { seen: o.seenVersion, now: o.version })}</p>
          <ul className="mt-1 list-disc pl-5">
            {o.since.map((tr) => (
              <li key={tr.id}>
                <span className="font-mono">{tr.event}</span> {tr.from} → {tr.to} · {tr.actor}
              </li>
            ))}
          </ul>
          <p className="mt-1">{t("reloadHint")}</p>
        </Alert>
      );
  }
}

"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";
import type { ActionResult } from "@/lib/auth/action";
import type { PublicError } from "@/lib/errors";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { OrderMovedNotice, useFormBasis } from "./live-order";

/** What a field's control needs: an id unique to this form instance, its name, its error wiring. */
export interface ControlProps {
  readonly id: string;
  readonly name: string;
  readonly "aria-invalid": boolean;
  readonly "aria-describedby": string | undefined;
}

/** Lays out one labelled field; the server's message about it (already in the UI's language) below. */
export type FieldSlot = (name: string, label: string, control: (props: ControlProps) => ReactNode) => ReactNode;

export interface ActionDialogProps<T> {
  readonly title: ReactNode;
  /** Said above the fields: what confirming will do. */
  readonly intro?: ReactNode;
  /**
   * The form's own fields, laid out with `field` (called right here, not inside a child component:
   * that is how the dialog knows which fields it shows). The reason field comes after them.
   */
  readonly fields?: (field: FieldSlot) => ReactNode;
  readonly reasonLabel: string;
  /** Reasons to pick from (the product's canned reasons for this action); picking one fills the reason, which stays editable. */
  readonly cannedReasons?: readonly string[];
  readonly confirmLabel: string;
  readonly confirmTestId?: string;
  /** Confirm is held back (e.g. until an irreversible step is acknowledged). */
  readonly confirmDisabled?: boolean;
  /**
   * Sends the form. `key` is made once per opened form: submitting it twice (a double click, a
   * retry after a timeout) is one change, never two.
   */
  readonly send: (form: FormData, key: string) => Promise<ActionResult<T>>;
  readonly outcome: (data: T) => ReactNode;
  /** Nothing is left to confirm (it was done, now or before): the confirm button goes away. */
  readonly finished: (data: T) => boolean;
  /**
   * Given: a finished answer closes the dialog and is handed here, for the page to show where the
   * change is (a dialog left open with only "Cancel" reads as if something were still to do).
   * Not given: the answer shows in the dialog, which stays open.
   */
  readonly onFinished?: (data: T) => void;
  /**
   * The answer was decided on an order that has moved on: instead of Confirm (which would be
   * refused the same way again) the form offers to reload the order; `onReload` runs first.
   */
  readonly needsReload?: (data: T) => boolean;
  readonly onReload?: () => void;
  /**
   * What the form submits against (the order's version). When it changes, the previous answer no
   * longer applies and is cleared; `notice` says what changed. What was typed stays.
   */
  readonly basis?: string | number;
  readonly notice?: ReactNode;
  readonly onClose: () => void;
}

/**
 * The frame every order action's form shares: a modal, the form's fields, a required reason, the
 * result, and cancel/confirm. Mount it to open it — each mount is a fresh form with a fresh key.
 * Closing it reads the order again (useRefreshView): the page held still while the dialog was open (LiveOrder).
 *
 * What was typed is never lost: the form submits through onSubmit rather than a form action
 * (React resets a form's uncontrolled fields after every action, refused or not), so after any
 * refusal — too short, stale, over-delivery, a server error — every field still holds its text.
 */
export function ActionDialog<T>(props: ActionDialogProps<T>) {
  const { title, intro, fields, reasonLabel, cannedReasons = [], confirmLabel, confirmTestId, confirmDisabled = false, send, outcome, finished } = props;
  const t = useTranslations("orderPage.dialog");
  const refresh = useRefreshView();
  const formId = useId();
  const [key] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  const [reason, setReason] = useState("");
  const [working, startTransition] = useTransition();
  const [reloading, startReload] = useTransition();
  const [basis, setBasis] = useState(props.basis);
  // Set once the answer was handed to onFinished: the dialog then closes itself (see CloseNow).
  const [closing, setClosing] = useState(false);
  // On the order page: the version this form stands on, and what changed since, said before submit.
  const moved = useFormBasis(typeof props.basis === "number" ? props.basis : undefined);
  if (props.basis !== basis) {
    // Adjusting state to a new prop during render: the answer was about the order as it was.
    setBasis(props.basis);
    setResult(null);
  }

  const errors = result && !result.ok ? (result.error.fields ?? {}) : {};
  // Fields this form shows: their errors appear beside them, any other field's in the result area.
  const shown = new Set<string>();
  const field: FieldSlot = (name, label, control) => {
    shown.add(name);
    const id = `${formId}-${name}`;
    const error = errors[name]?.[0];
    return (
      <Field label={label} htmlFor={id} error={error}>
        {control({ id, name, "aria-invalid": error !== undefined, "aria-describedby": error !== undefined ? `${id}-error` : undefined })}
      </Field>
    );
  };
  const own = fields?.(field);
  const canned = <CannedReasons id={`${formId}-canned`} reasons={cannedReasons} reason={reason} onPick={setReason} />;
  const reasonField = field("reason", reasonLabel, (p) => (
    <textarea {...p} value={reason} onChange={(e) => setReason(e.target.value)} required minLength={MIN_REASON_LENGTH} maxLength={MAX_REASON_LENGTH} rows={3} className={TEXTAREA} />
  ));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const answer = await send(form, key);
      if (answer.ok && props.onFinished && finished(answer.data)) {
        props.onFinished(answer.data);
        setClosing(true);
      } else setResult(answer);
    });
  }

  function reload() {
    props.onReload?.();
    startReload(refresh);
  }

  const done = result?.ok === true && finished(result.data);
  const stale = result?.ok === true && props.needsReload?.(result.data) === true;
  return (
    <Dialog
      title={title}
      onClose={() => {
        props.onClose();
        void refresh();
      }}
    >
      {(close) => (
        <form onSubmit={submit} className="space-y-4" aria-busy={working || reloading}>
          {intro ? <div className="text-sm text-slate-700">{intro}</div> : null}
          {own}
          {canned}
          {reasonField}
          {props.notice}
          {stale ? null : (
            <OrderMovedNotice
              basis={moved.basis}
              onReload={() => {
                props.onReload?.();
                moved.reload();
              }}
              reloading={moved.reloading || reloading}
            />
          )}
          {result ? result.ok ? outcome(result.data) : <FailureNotice error={result.error} shownFields={shown} /> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t("cancel")}
            </Button>
            {done ? null : stale ? (
              <Button onClick={reload} disabled={reloading} data-testid="reload-order">
                {reloading ? t("reloading") : t("reload")}
              </Button>
            ) : (
              <Button type="submit" disabled={working || closing || confirmDisabled} data-testid={confirmTestId}>
                {working ? t("working") : confirmLabel}
              </Button>
            )}
          </div>
          {closing ? <CloseNow close={close} /> : null}
        </form>
      )}
    </Dialog>
  );
}

/** Closes the dialog through the element (focus goes back to where it was, onClose runs), once. */
function CloseNow({ close }: { close: () => void }) {
  useEffect(close, [close]);
  return null;
}

/**
 * A refused or failed submission: the server's message (already in the UI's language), and the
 * messages about fields the form does not show (a hidden version, a key), which would be lost otherwise.
 */
export function FailureNotice({ error, shownFields }: { error: PublicError; shownFields: ReadonlySet<string> }) {
  const t = useTranslations("orderPage.dialog");
  const elsewhere = Object.entries(error.fields ?? {}).flatMap(([name, messages]) => (shownFields.has(name) ? [] : messages));
  return (
    <Alert tone="error">
      <p>{t("failed", { message: error.message })}</p>
      {elsewhere.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {elsewhere.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      ) : null}
      <p className="mt-1 text-xs">{t("kept")}</p>
    </Alert>
  );
}

/**
 * A button that opens an action's dialog; the dialog is mounted only while open (a fresh form each
 * time). `show` puts what a finished dialog did beside the button (after it closed), until it opens again.
 * `hidden`: nothing is left to do here (the change the dialog made took the reason for the button
 * away) — the button goes, what the dialog did stays.
 */
export function DialogButton({
  label,
  variant = "secondary",
  className,
  dialog,
  outcomeTestId,
  hidden = false,
}: {
  label: ReactNode;
  variant?: "primary" | "secondary";
  className?: string;
  dialog: (close: () => void, show: (outcome: ReactNode) => void) => ReactNode;
  outcomeTestId?: string;
  hidden?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<ReactNode>(null);
  return (
    <>
      {hidden ? null : (
        <Button
          variant={variant}
          className={className}
          onClick={() => {
            setOutcome(null);
            setOpen(true);
          }}
          aria-haspopup="dialog"
        >
          {label}
        </Button>
      )}
      {open ? dialog(() => setOpen(false), setOutcome) : null}
      {outcome !== null ? <div data-testid={outcomeTestId}>{outcome}</div> : null}
    </>
  );
}

/** The product's canned reasons for a form, as a pick that fills the reason (which stays editable). Nothing when there are none. */
export function CannedReasons({ id, reasons, reason, onPick }: { id: string; reasons: readonly string[]; reason: string; onPick: (reason: string) => void }) {
  const t = useTranslations("orderPage.dialog");
  if (reasons.length === 0) return null;
  return (
    <Field label={t("canned")} htmlFor={id}>
      <Select
        id={id}
        value={reasons.includes(reason) ? reason : ""}
        onChange={(e) => {
          if (e.target.value !== "") onPick(e.target.value);
        }}
        data-testid="canned-reason"
      >
        <option value="">{t("cannedNone")}</option>
        {reasons.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </Select>
    </Field>
  );
}

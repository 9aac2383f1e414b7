"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { ActionResult } from "@/lib/auth/action";
import type { PublicError } from "@/lib/errors";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";

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
  readonly confirmLabel: string;
  readonly confirmTestId?: string;
  /**
   * Sends the form. `key` is made once per opened form: submitting it twice (a double click, a
   * retry after a timeout) is one change, never two.
   */
  readonly send: (form: FormData, key: string) => Promise<ActionResult<T>>;
  readonly outcome: (data: T) => ReactNode;
  /** Nothing is left to confirm (it was done, now or before): the confirm button goes away. */
  readonly finished: (data: T) => boolean;
  readonly onClose: () => void;
}

/**
 * The frame every order action's form shares: a modal, the form's fields, a required reason, the
 * result, and cancel/confirm. Mount it to open it — each mount is a fresh form with a fresh key.
 * Closing it refreshes the page, which held still while the dialog was open (LiveOrder).
 */
export function ActionDialog<T>({ title, intro, fields, reasonLabel, confirmLabel, confirmTestId, send, outcome, finished, onClose }: ActionDialogProps<T>) {
  const t = useTranslations("orderPage.dialog");
  const router = useRouter();
  const formId = useId();
  const [key] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  const [working, startTransition] = useTransition();

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
  const reason = field("reason", reasonLabel, (props) => (
    <textarea {...props} required minLength={MIN_REASON_LENGTH} maxLength={MAX_REASON_LENGTH} rows={3} autoFocus className={TEXTAREA} />
  ));

  function submit(form: FormData) {
    startTransition(async () => setResult(await send(form, key)));
  }

  return (
    <Dialog
      title={title}
      onClose={() => {
        onClose();
        router.refresh();
      }}
    >
      {(close) => (
        <form action={submit} className="space-y-4">
          {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
          {own}
          {reason}
          {result ? result.ok ? outcome(result.data) : <FailureNotice error={result.error} shownFields={shown} /> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t("cancel")}
            </Button>
            {result?.ok && finished(result.data) ? null : (
              <Button type="submit" disabled={working} data-testid={confirmTestId}>
                {working ? t("working") : confirmLabel}
              </Button>
            )}
          </div>
        </form>
      )}
    </Dialog>
  );
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
    </Alert>
  );
}

/** A button that opens an action's dialog; the dialog is mounted only while open (a fresh form each time). */
export function DialogButton({
  label,
  variant = "secondary",
  className,
  dialog,
}: {
  label: ReactNode;
  variant?: "primary" | "secondary";
  className?: string;
  dialog: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} className={className} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open ? dialog(() => setOpen(false)) : null}
    </>
  );
}

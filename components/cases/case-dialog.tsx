"use client";

import { useTranslations } from "next-intl";
import { useId, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { CannedReasons, FailureNotice, type ControlProps } from "@/components/orders/action-dialog";
import { OrderMovedNotice, useFormBasis } from "@/components/orders/live-order";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { ActionResult } from "@/lib/auth/action";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { useCaseNotice } from "./case-notice";

export interface CaseField {
  readonly name: string;
  readonly label: string;
  readonly control: (props: ControlProps) => ReactNode;
}

export interface CaseDialogProps<T> {
  readonly caseId: number;
  readonly title: ReactNode;
  readonly intro?: ReactNode;
  /** Fields before the reason (the assignee), each laid out with its label and the server's word about it. */
  readonly fields?: readonly CaseField[];
  readonly reasonLabel: string;
  /** The product's canned reasons for this action: picking one fills the reason, which stays editable. */
  readonly cannedReasons?: readonly string[];
  readonly confirmLabel: string;
  readonly confirmTestId: string;
  /** `key` is made once per opened form: submitting it twice is one change. */
  readonly send: (form: FormData, key: string) => Promise<ActionResult<T>>;
  /** What was done, in words: said where the cases are (CaseNoticeArea) once the dialog has closed. */
  readonly outcome: (data: T) => ReactNode;
  /** Closes the dialog (after a success, or a cancel); the caller refreshes what it shows. */
  readonly onClose: () => void;
}

/**
 * A case action's form (resolve, dismiss, assign, record that the channel was told): a required
 * reason, the product's canned reasons, and the server's refusal beside what was typed. On success
 * it closes, and the outcome is said above the cases — not in a dialog left open with only
 * "Cancel", beside fields a live refresh may have changed under it (issue 29).
 */
export function CaseDialog<T>({ caseId, title, intro, fields, reasonLabel, cannedReasons = [], confirmLabel, confirmTestId, send, outcome, onClose }: CaseDialogProps<T>) {
  const t = useTranslations("orderPage.dialog");
  const formId = useId();
  const notify = useCaseNotice();
  const [key] = useState(() => crypto.randomUUID());
  const [failure, setFailure] = useState<Extract<ActionResult<T>, { ok: false }> | null>(null);
  const [reason, setReason] = useState("");
  const [working, start] = useTransition();
  // On the order page: the order moving on while this form is open is said before submit.
  const moved = useFormBasis();
  const id = (name: string) => `${formId}-${name}`;
  const errors = failure?.error.fields ?? {};
  const shown = new Set(["reason", ...(fields ?? []).map((f) => f.name)]);
  const field = (name: string, label: string, control: (props: ControlProps) => ReactNode) => {
    const error = errors[name]?.[0];
    return (
      <Field key={name} label={label} htmlFor={id(name)} error={error}>
        {control({ id: id(name), name, "aria-invalid": error !== undefined, "aria-describedby": error !== undefined ? `${id(name)}-error` : undefined })}
      </Field>
    );
  };

  return (
    <Dialog title={title} onClose={onClose}>
      {(close) => {
        const submit = (event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          start(async () => {
            const result = await send(form, key);
            if (!result.ok) {
              setFailure(result);
              return;
            }
            notify({ caseId, body: outcome(result.data) });
            close();
          });
        };
        return (
          <form onSubmit={submit} className="space-y-4" aria-busy={working}>
            {intro ? <div className="text-sm text-slate-700">{intro}</div> : null}
            {(fields ?? []).map((f) => field(f.name, f.label, f.control))}
            <CannedReasons id={id("canned")} reasons={cannedReasons} reason={reason} onPick={setReason} />
            {field("reason", reasonLabel, (p) => (
              <textarea {...p} value={reason} onChange={(e) => setReason(e.target.value)} required minLength={MIN_REASON_LENGTH} maxLength={MAX_REASON_LENGTH} rows={3} className={TEXTAREA} />
            ))}
            <OrderMovedNotice basis={moved.basis} onReload={moved.reload} reloading={moved.reloading} />
            {failure ? <FailureNotice error={failure.error} shownFields={shown} /> : null}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                {t("cancel")}
              </Button>
              <Button type="submit" disabled={working} data-testid={confirmTestId}>
                {working ? t("working") : confirmLabel}
              </Button>
            </div>
          </form>
        );
      }}
    </Dialog>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState, useTransition, type FormEvent } from "react";
import { addNote, type AddNoteOutcome } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/add-note";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TEXTAREA } from "@/components/ui/dialog";
import { useShortcut } from "@/components/ui/keyboard";
import { SHORTCUT_KEYS } from "@/lib/keyboard/shortcuts";
import type { ActionResult } from "@/lib/auth/action";
import { FailureNotice } from "./action-dialog";
import { OrderMovedNotice, useFormBasis } from "./live-order";

/** The note being corrected: a correction is a new note that names it (notes are never edited). */
export interface Correcting {
  readonly id: number;
  /** Its number on the order (what the timeline calls it); ids run across every order. */
  readonly number?: number;
  readonly body: string;
}

const MAX_NOTE_LENGTH = 2_000;

/**
 * Writes an internal note on the order, or a correction of one. Each note it sends carries its own
 * key (made when the composer is ready for a new note), so a double submit or a retry after a
 * timeout adds the note once; the key changes only after the note is in.
 */
export function NoteComposer({ tenant, orderNo, correcting, onDone }: { tenant: string; orderNo: string; correcting: Correcting | null; onDone: () => void }) {
  const t = useTranslations("orderPage.notes");
  const refresh = useRefreshView();
  const fieldId = useId();
  const form = useRef<HTMLFormElement>(null);
  // "n": the note box, wherever the page is scrolled.
  useShortcut("note", () => form.current?.querySelector("textarea")?.focus());
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<ActionResult<AddNoteOutcome> | null>(null);
  const [working, startTransition] = useTransition();
  // The version the page showed when the note's text was begun (a correction begins with its text):
  // the order moving on while it is being written is said before it is sent. An empty box stands on nothing.
  const [begunAt, setBegunAt] = useState<number | null>(null);
  const moved = useFormBasis(begunAt ?? (correcting ? undefined : null));

  // onSubmit, not a form action: React resets a form after every action, and a refused note must
  // keep its text. The form is cleared by hand once the note is in.
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(async () => {
      const sent = await addNote({ tenant, orderNo, body: String(data.get("body") ?? ""), noteKey: key, ...(correcting ? { correctsId: correcting.id } : {}) });
      setResult(sent);
      if (sent.ok) {
        form.current?.reset();
        setBegunAt(null);
        setKey(crypto.randomUUID());
        onDone();
        void refresh();
      }
    });
  }

  const error = result && !result.ok ? result.error.fields?.body?.[0] : undefined;
  return (
    <form ref={form} onSubmit={submit} className="space-y-2 rounded-md border border-amber-200 bg-amber-50/60 p-3" data-testid="note-composer">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
        {correcting ? t("correctingLabel", { id: correcting.number ?? correcting.id }) : t("label")}
      </label>
      <textarea
        id={fieldId}
        name="body"
        required
        maxLength={MAX_NOTE_LENGTH}
        rows={correcting ? 4 : 2}
        // A correction starts from the text it corrects.
        defaultValue={correcting?.body ?? ""}
        autoFocus={correcting !== null}
        onChange={(e) => {
          if (e.target.value === "") setBegunAt(null);
          else if (begunAt === null && moved.latest !== null) setBegunAt(moved.latest);
        }}
        aria-keyshortcuts={SHORTCUT_KEYS.note}
        aria-invalid={error !== undefined}
        aria-describedby={`${fieldId}-hint`}
        className={TEXTAREA}
      />
      <p id={`${fieldId}-hint`} className="text-xs text-slate-500">
        {error ?? t("hint", { max: MAX_NOTE_LENGTH })}
      </p>
      <OrderMovedNotice
        basis={moved.basis}
        onReload={() => {
          if (begunAt !== null && moved.latest !== null) setBegunAt(moved.latest);
          moved.reload();
        }}
        reloading={moved.reloading}
      />
      {result ? (
        result.ok ? (
          <Alert tone={result.data.result === "added" ? "success" : "info"}>{result.data.result === "added" ? t("added", { id: result.data.id }) : t("duplicate")}</Alert>
        ) : (
          <FailureNotice error={result.error} shownFields={new Set(["body"])} />
        )
      ) : null}
      <div className="flex justify-end gap-2">
        {correcting ? (
          <Button variant="secondary" onClick={onDone}>
            {t("cancelCorrection")}
          </Button>
        ) : null}
        <Button type="submit" disabled={working} data-testid="add-note">
          {working ? t("working") : correcting ? t("submitCorrection") : t("submit")}
        </Button>
      </div>
    </form>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth/action";
import type { PublicError } from "@/lib/errors";
import type { SettingsUpdate } from "@/lib/settings/update-tenant-settings";

type Outcome = { readonly kind: "saved" | "unchanged" } | { readonly kind: "error"; readonly error: PublicError };

export interface SettingsFormProps {
  /** The settings row's version as rendered; sent with every save (stale forms are refused). */
  readonly updatedAt: string;
  readonly testId: string;
  readonly onSubmit: (form: FormData, expectedUpdatedAt: string) => Promise<ActionResult<SettingsUpdate>>;
  readonly children: (ctx: { fieldError: (name: string) => string | undefined; pending: boolean }) => ReactNode;
}

/**
 * The frame of one settings form: submit, pending state, the outcome. Every save sends the row's
 * version the page holds now (the three forms of a tenant share one row, so a save in one form
 * moves the version of all three without touching what is typed in the others).
 *
 * A save reads the page's data again (its query; nothing is rendered on the server) before it says
 * "Saved", so the next save sends the new version. A stale refusal keeps what was typed; "show
 * current values" reads the data again and then remounts the inputs, so they show the values someone
 * else saved instead.
 */
export function SettingsForm({ updatedAt, testId, onSubmit, children }: SettingsFormProps) {
  const t = useTranslations("settings.form");
  const refresh = useRefreshView();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const [inputsKey, setInputsKey] = useState(updatedAt);
  const [awaitingFresh, setAwaitingFresh] = useState(false);
  const [seenUpdatedAt, setSeenUpdatedAt] = useState(updatedAt);
  if (updatedAt !== seenUpdatedAt) {
    // Adjusting state to a new prop during render (no effect): the fresh data has arrived.
    setSeenUpdatedAt(updatedAt);
    if (awaitingFresh) {
      setAwaitingFresh(false);
      setInputsKey(updatedAt);
    }
  }
  // Brought into view when it changes: a Save pressed at the bottom edge of the window would leave it just below.
  const said = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) said.current?.scrollIntoView({ block: "nearest" });
  }, [outcome]);
  const fieldError = (name: string) => (outcome?.kind === "error" ? outcome.error.fields?.[name]?.[0] : undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await onSubmit(form, updatedAt);
      if (result.ok && result.data.status === "saved") await refresh();
      setOutcome(result.ok ? { kind: result.data.status === "saved" ? "saved" : "unchanged" } : { kind: "error", error: result.error });
    });
  }

  const stale = outcome?.kind === "error" && outcome.error.code === "conflict";
  // The outcome stands under the Save button that was just pressed: above a long form it would be
  // off screen, and the person would not know whether it saved.
  return (
    <div className="space-y-3" data-testid={testId}>
      <form key={inputsKey} onSubmit={submit} noValidate aria-busy={pending} className="space-y-4">
        {children({ fieldError, pending })}
        <Button type="submit" disabled={pending}>
          {pending ? t("saving") : t("save")}
        </Button>
      </form>
      <div ref={said}>
        {outcome?.kind === "saved" ? <Alert tone="success">{t("saved")}</Alert> : null}
        {outcome?.kind === "unchanged" ? <Alert>{t("unchanged")}</Alert> : null}
        {outcome?.kind === "error" ? (
          <Alert tone="error">
            {outcome.error.code === "invalid-input" ? t("invalid") : outcome.error.message}
            {stale ? (
              <Button
                variant="secondary"
                className="ml-3 px-2 py-1 text-xs"
                onClick={() => {
                  setOutcome(null);
                  setAwaitingFresh(true);
                  void refresh();
                }}
              >
                {t("showCurrent")}
              </Button>
            ) : null}
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

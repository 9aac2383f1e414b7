"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { saveSharedViewAction } from "@/app/[locale]/(console)/orders/(list)/actions/save-shared-view";
import { saveViewAction } from "@/app/[locale]/(console)/orders/(list)/actions/save-view";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import { VIEW_NAME_MAX, type OrdersListFilters } from "@/lib/views/view-filters";
import { useViewsChanged } from "./views-changed";

/**
 * "Save view": names the filters on screen. Personal by default; ops and up may share it with the
 * product's staff, which needs a product filter (a shared view shows one product's orders). After
 * saving, the list opens as the view, so it is marked in the navigation.
 */
export function SaveViewButton({ filters, canShare, productName }: { filters: OrdersListFilters; canShare: boolean; productName: string | null }) {
  const t = useTranslations("views");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="save-view">
        {t("save")}
      </Button>
      {open ? (
        <Dialog title={t("saveTitle")} onClose={() => setOpen(false)}>
          {(close) => <SaveViewForm filters={filters} canShare={canShare} productName={productName} close={close} />}
        </Dialog>
      ) : null}
    </>
  );
}

function SaveViewForm({ filters, canShare, productName, close }: { filters: OrdersListFilters; canShare: boolean; productName: string | null; close: () => void }) {
  const t = useTranslations("views");
  const router = useRouter();
  const viewsChanged = useViewsChanged();
  const id = useId();
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<PublicError | null>(null);
  const [busy, startTransition] = useTransition();
  const nameError = error?.fields?.name?.[0] ?? (error?.problem?.kind === "view-name-taken" ? error.message : undefined);
  const shareable = canShare && filters.tenant !== undefined;
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(async () => {
          const input = { ...filters, name, stuck: filters.stuck ? "1" : "" };
          const result = shared && filters.tenant ? await saveSharedViewAction({ ...input, tenant: filters.tenant }) : await saveViewAction(input);
          if (!result.ok) {
            // What was typed stays: only the words of the refusal are added.
            setError(result.error);
            return;
          }
          close();
          void viewsChanged();
          router.push(result.data.href);
        });
      }}
    >
      <Field label={t("name")} htmlFor={`${id}-name`} error={nameError} hint={t("nameHint")}>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={VIEW_NAME_MAX}
          required
          autoFocus
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
        />
      </Field>
      {canShare ? (
        <div className="space-y-1">
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={shared}
              disabled={!shareable}
              onChange={(e) => setShared(e.target.checked)}
              className="h-4 w-4 rounded border-slate-300"
              aria-describedby={`${id}-share-hint`}
            />
            {productName ? t("shareWith", { product: productName }) : t("share")}
          </label>
          <p id={`${id}-share-hint`} className="text-xs text-slate-500">
            {shareable ? t("shareHint") : t("shareNeedsProduct")}
          </p>
        </div>
      ) : null}
      {error && !nameError ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t("cancel")}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t("saving") : t("confirmSave")}
        </Button>
      </div>
    </form>
  );
}

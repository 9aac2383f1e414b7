"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { deleteViewAction } from "@/app/[locale]/(console)/orders/(list)/actions/delete-view";
import { renameViewAction } from "@/app/[locale]/(console)/orders/(list)/actions/rename-view";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import { VIEW_NAME_MAX } from "@/lib/views/view-filters";
import { useViewsChanged } from "./views-changed";

/** Rename and delete for the view on screen, offered to whoever may change it (savedViewScope decides again). */
export function ViewControls({ id, name }: { id: number; name: string }) {
  const t = useTranslations("views");
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  return (
    <span className="inline-flex gap-2">
      <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setDialog("rename")}>
        {t("rename")}
      </Button>
      <Button variant="ghost" className="px-2 py-1 text-xs text-red-700" onClick={() => setDialog("delete")}>
        {t("delete")}
      </Button>
      {dialog === "rename" ? (
        <Dialog title={t("renameTitle")} onClose={() => setDialog(null)}>
          {(close) => <RenameForm id={id} name={name} close={close} />}
        </Dialog>
      ) : null}
      {dialog === "delete" ? (
        <Dialog title={t("deleteTitle", { name })} onClose={() => setDialog(null)}>
          {(close) => <DeleteForm id={id} close={close} />}
        </Dialog>
      ) : null}
    </span>
  );
}

function RenameForm({ id, name, close }: { id: number; name: string; close: () => void }) {
  const t = useTranslations("views");
  const viewsChanged = useViewsChanged();
  const field = useId();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<PublicError | null>(null);
  const [busy, startTransition] = useTransition();
  const nameError = error?.fields?.name?.[0] ?? (error?.problem?.kind === "view-name-taken" ? error.message : undefined);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(async () => {
          const result = await renameViewAction({ id, name: value });
          if (!result.ok) return setError(result.error);
          close();
          await viewsChanged();
        });
      }}
    >
      <Field label={t("name")} htmlFor={field} error={nameError}>
        <Input
          id={field}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          maxLength={VIEW_NAME_MAX}
          required
          autoFocus
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${field}-error` : undefined}
        />
      </Field>
      {error && !nameError ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t("cancel")}
        </Button>
        <Button type="submit" disabled={busy}>
          {t("confirmRename")}
        </Button>
      </div>
    </form>
  );
}

function DeleteForm({ id, close }: { id: number; close: () => void }) {
  const t = useTranslations("views");
  const router = useRouter();
  const viewsChanged = useViewsChanged();
  const [error, setError] = useState<PublicError | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{t("deleteBody")}</p>
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t("cancel")}
        </Button>
        <Button
          variant="danger"
          disabled={busy}
          onClick={() =>
            startTransition(async () => {
              const result = await deleteViewAction({ id });
              if (!result.ok) return setError(result.error);
              close();
              void viewsChanged();
              // The filters stay on screen, as a plain list: the view was a name for them.
              const url = new URL(window.location.href);
              url.searchParams.delete("view");
              router.replace(`${url.pathname}${url.search}`);
            })
          }
        >
          {t("confirmDelete")}
        </Button>
      </div>
    </div>
  );
}

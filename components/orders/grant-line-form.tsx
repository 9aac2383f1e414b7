"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { grantLine, type GrantLineOutcome } from "@/app/(console)/orders/[tenant]/[orderNo]/actions/grant-line";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";

/** Ops' compensating grant on one line: prefilled with what is pending; its own grant id per form. */
export function GrantLineButton({ tenant, orderNo, sku, pending }: { tenant: string; orderNo: string; sku: string; pending: number }) {
  const t = useTranslations("ops");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => setOpen(true)}>
        {t("grant")}
      </Button>
      {open ? <GrantDialog tenant={tenant} orderNo={orderNo} sku={sku} pending={pending} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function GrantDialog({ tenant, orderNo, sku, pending, onClose }: { tenant: string; orderNo: string; sku: string; pending: number; onClose: () => void }) {
  const t = useTranslations("ops");
  const router = useRouter();
  const [grantKey] = useState(() => crypto.randomUUID());
  const [shown, setShown] = useState<{ outcome?: GrantLineOutcome; error?: PublicError } | null>(null);
  const [busy, startTransition] = useTransition();

  function submit(form: FormData) {
    startTransition(async () => {
      const result = await grantLine({ tenant, orderNo, sku, grantKey, quantity: Number(form.get("quantity")), reason: String(form.get("reason") ?? "") });
      setShown(result.ok ? { outcome: result.data } : { error: result.error });
    });
  }
  const o = shown?.outcome;
  const finished = o?.result === "applied" || o?.result === "duplicate";

  return (
    <Dialog title={t("grantTitle", { sku })} onClose={() => {
        onClose();
        router.refresh();
      }}>
      {(close) => (
        <form action={submit} className="space-y-4">
          <input type="hidden" name="grantKey" value={grantKey} />
          <Field label={t("quantity", { pending })} htmlFor="grant-quantity" error={shown?.error?.fields?.quantity?.[0]}>
            <Input id="grant-quantity" name="quantity" type="number" min={1} step={1} defaultValue={pending} required />
          </Field>
          <Field label={t("reason")} htmlFor="grant-reason" error={shown?.error?.fields?.reason?.[0]}>
            <textarea id="grant-reason" name="reason" required minLength={MIN_REASON_LENGTH} rows={2} autoFocus className={TEXTAREA} />
          </Field>
          {shown?.error && !shown.error.fields ? <Alert tone="error">{shown.error.message}</Alert> : null}
          {o?.result === "applied" ? <Alert tone="success">{t("grantApplied", { quantity: o.quantity })}</Alert> : null}
          {o?.result === "duplicate" ? <Alert tone="info">{t("grantDuplicate")}</Alert> : null}
          {o?.result === "over-delivery" ? (
            <Alert tone="error">{t("overDelivery", { expected: o.expected, granted: o.granted, asked: o.asked, room: Math.max(0, o.expected - o.granted) })}</Alert>
          ) : null}
          {o?.result === "invalid-state" ? <Alert tone="error">{t("invalidState", { state: o.state })}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t("cancel")}
            </Button>
            {finished ? null : (
              <Button type="submit" disabled={busy}>
                {busy ? t("working") : t("confirm")}
              </Button>
            )}
          </div>
        </form>
      )}
    </Dialog>
  );
}

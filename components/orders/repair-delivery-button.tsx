"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { repairDelivery } from "@/app/(console)/orders/[tenant]/[orderNo]/actions/repair-delivery";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import type { CompleteDeliveryResult } from "@/lib/orders/complete-delivery";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";

export function RepairDeliveryButton({ tenant, orderNo }: { tenant: string; orderNo: string }) {
  const t = useTranslations("ops");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {t("repair")} <span className="font-mono text-xs opacity-70">repair</span>
      </Button>
      {open ? <RepairDialog tenant={tenant} orderNo={orderNo} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function RepairDialog({ tenant, orderNo, onClose }: { tenant: string; orderNo: string; onClose: () => void }) {
  const t = useTranslations("ops");
  const router = useRouter();
  const [shown, setShown] = useState<{ result?: CompleteDeliveryResult; error?: PublicError } | null>(null);
  const [busy, startTransition] = useTransition();

  function submit(form: FormData) {
    startTransition(async () => {
      const result = await repairDelivery({ tenant, orderNo, reason: String(form.get("reason") ?? "") });
      setShown(result.ok ? { result: result.data } : { error: result.error });
    });
  }
  const r = shown?.result;

  return (
    <Dialog title={t("repair")} onClose={() => {
        onClose();
        router.refresh();
      }}>
      {(close) => (
        <form action={submit} className="space-y-4">
          <p className="text-sm text-slate-600">{t("repairHint")}</p>
          <Field label={t("reason")} htmlFor="repair-reason" error={shown?.error?.fields?.reason?.[0]}>
            <textarea id="repair-reason" name="reason" required minLength={MIN_REASON_LENGTH} rows={2} autoFocus className={TEXTAREA} />
          </Field>
          {shown?.error && !shown.error.fields ? <Alert tone="error">{shown.error.message}</Alert> : null}
          {r?.result === "completed" || r?.result === "incomplete" ? (
            <Alert tone={r.result === "completed" ? "success" : "error"}>
              <p>{r.result === "completed" ? t("repairDone") : t("repairIncomplete", { reason: r.reason })}</p>
              <ul className="mt-1 list-disc pl-5 font-mono text-xs">
                {r.steps.map((s, i) => (
                  <li key={i}>
                    {s.step.kind === "grant" ? `grant ${s.step.sku} ×${s.step.quantity}` : s.step.kind}: {s.result}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {r?.result === "in-progress" ? <Alert tone="error">{t("repairInProgress")}</Alert> : null}
          {r?.result === "not-possible" ? <Alert tone={r.nothingToDo ? "info" : "error"}>{t("repairNotPossible", { reason: r.reason })}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t("cancel")}
            </Button>
            {r?.result === "completed" ? null : (
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

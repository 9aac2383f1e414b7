"use client";

import { useTranslations } from "next-intl";
import { grantLine, type GrantLineOutcome } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/grant-line";
import { Alert } from "@/components/ui/alert";
import { Input } from "@/components/ui/field";
import { assertNever } from "@/lib/orders/machine";
import { ActionDialog, DialogButton } from "./action-dialog";
import { useDescribeProblem } from "./names";

interface GrantLineProps {
  readonly tenant: string;
  readonly orderNo: string;
  readonly sku: string;
  readonly pending: number;
}

/** Ops' compensating grant on one line: prefilled with what is pending; its own grant id per form. `hidden`: the order cannot take grants now. */
export function GrantLineButton({ hidden = false, ...props }: GrantLineProps & { readonly hidden?: boolean }) {
  const t = useTranslations("ops");
  return (
    <DialogButton
      label={t("grant")}
      className="px-2 py-1 text-xs"
      // Nothing pending: nothing to grant, but what the last grant did is still said.
      hidden={hidden || props.pending <= 0}
      outcomeTestId={`grant-outcome-${props.sku}`}
      dialog={(close, show) => <GrantDialog {...props} onClose={close} onFinished={(outcome) => show(<GrantOutcome outcome={outcome} />)} />}
    />
  );
}

export function GrantDialog({
  tenant,
  orderNo,
  sku,
  pending,
  onClose,
  onFinished,
}: GrantLineProps & { onClose: () => void; onFinished?: (outcome: GrantLineOutcome) => void }) {
  const t = useTranslations("ops");
  return (
    <ActionDialog<GrantLineOutcome>
      title={t("grantTitle", { sku })}
      reasonLabel={t("reason")}
      confirmLabel={t("confirm")}
      fields={(field) =>
        field("quantity", t("quantity", { pending }), (props) => <Input {...props} type="number" min={1} step={1} defaultValue={pending} required />)
      }
      send={(form, grantKey) => grantLine({ tenant, orderNo, sku, grantKey, quantity: Number(form.get("quantity")), reason: String(form.get("reason") ?? "") })}
      outcome={(outcome) => <GrantOutcome outcome={outcome} />}
      finished={(o) => o.result !== "refused"}
      {...(onFinished ? { onFinished } : {})}
      onClose={onClose}
    />
  );
}

export function GrantOutcome({ outcome }: { outcome: GrantLineOutcome }) {
  const t = useTranslations("ops");
  const describe = useDescribeProblem();
  switch (outcome.result) {
    case "applied":
      return <Alert tone="success">{t("grantApplied", { quantity: outcome.quantity })}</Alert>;
    case "duplicate":
      return <Alert tone="info">{t("grantDuplicate")}</Alert>;
    case "refused":
      return <Alert tone="error">{t("grantRefused", { reason: describe(outcome.refusal) })}</Alert>;
    default:
      return assertNever(outcome);
  }
}

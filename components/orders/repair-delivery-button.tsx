"use client";

import { useTranslations } from "next-intl";
import { repairDelivery } from "@/app/[locale]/(console)/orders/[tenant]/[orderNo]/actions/repair-delivery";
import { Alert } from "@/components/ui/alert";
import type { DeliveryStep } from "@/lib/orders/delivery-plan";
import { assertNever } from "@/lib/orders/machine";
import type { GrantResult } from "@/lib/orders/grant";
import type { RepairDeliveryResult, StepOutcome } from "@/lib/orders/repair-delivery";
import type { TransitOutcome } from "@/lib/orders/transit";
import { ActionDialog, DialogButton } from "./action-dialog";
import { useDescribeProblem } from "./names";

interface RepairProps {
  readonly tenant: string;
  readonly orderNo: string;
}

/** `hidden`: the order can no longer be repaired (e.g. the repair just delivered it); what the repair did stays said. */
export function RepairDeliveryButton({ hidden = false, ...props }: RepairProps & { hidden?: boolean }) {
  const t = useTranslations("ops");
  return (
    <DialogButton
      label={t("repair")}
      hidden={hidden}
      outcomeTestId="repair-outcome"
      dialog={(close, show) => <RepairDialog {...props} onClose={close} onFinished={(result) => show(<RepairOutcome result={result} orderNo={props.orderNo} />)} />}
    />
  );
}

export function RepairDialog({ tenant, orderNo, onClose, onFinished }: RepairProps & { onClose: () => void; onFinished?: (result: RepairDeliveryResult) => void }) {
  const t = useTranslations("ops");
  return (
    <ActionDialog<RepairDeliveryResult>
      title={t("repair")}
      intro={t("repairHint")}
      reasonLabel={t("reason")}
      confirmLabel={t("confirm")}
      // Repair makes its own keys from the order's ledger (rerunnable by design): the form key is not needed.
      send={(form) => repairDelivery({ tenant, orderNo, reason: String(form.get("reason") ?? "") })}
      outcome={(result) => <RepairOutcome result={result} orderNo={orderNo} />}
      finished={(r) => r.result === "completed"}
      {...(onFinished ? { onFinished } : {})}
      onClose={onClose}
    />
  );
}

export function RepairOutcome({ result: r, orderNo }: { result: RepairDeliveryResult; orderNo: string }) {
  const t = useTranslations("ops");
  const describe = useDescribeProblem();
  switch (r.result) {
    case "completed":
      return (
        <Alert tone="success">
          <p>{t("repairDone")}</p>
          <Steps steps={r.steps} />
        </Alert>
      );
    case "incomplete":
      return (
        <Alert tone="error">
          <p>{t("repairIncomplete", { reason: describe(r.problem) })}</p>
          <Steps steps={r.steps} />
        </Alert>
      );
    case "not-possible":
      return <Alert tone={r.nothingToDo ? "info" : "error"}>{t("repairNotPossible", { reason: describe(r.problem) })}</Alert>;
    case "in-progress":
      return <Alert tone="error">{t("repairInProgress")}</Alert>;
    case "not-found":
      return <Alert tone="error">{describe({ kind: "order-not-found", orderNo })}</Alert>;
    default:
      return assertNever(r);
  }
}

/** Every answer a repair step can get: transit()'s for the event steps, grant()'s for the grants. */
type StepResult = TransitOutcome | GrantResult["result"];
const STEP_RESULTS: Readonly<Record<StepResult, true>> = {
  applied: true,
  duplicate: true,
  illegal: true,
  stale: true,
  rejected: true,
  "not-found": true,
  "invalid-state": true,
  "unknown-sku": true,
  "invalid-quantity": true,
  "over-delivery": true,
  "reserved-grant-id": true,
};

function isStepResult(value: string): value is StepResult {
  return Object.hasOwn(STEP_RESULTS, value);
}

function Steps({ steps }: { steps: readonly StepOutcome[] }) {
  const t = useTranslations("ops");
  const stepName = (step: DeliveryStep) => (step.kind === "grant" ? t("steps.grant", { sku: step.sku, quantity: step.quantity }) : t(`steps.${step.kind}`));
  return (
    <ul className="mt-1 list-disc pl-5 text-xs">
      {steps.map((s, i) => (
        <li key={i}>
          {t("stepLine", {
            step: stepName(s.step),
            // StepOutcome.result is typed as a string: an answer this list does not know is shown as sent.
            result: isStepResult(s.result) ? t(`stepResults.${s.result}`) : s.result,
          })}
        </li>
      ))}
    </ul>
  );
}

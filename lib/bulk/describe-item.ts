// A bulk item's outcome (lib/bulk/batches.ts ItemDetail) in words, in one language: for the results
// table and the CSV. Pure.
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import type { Locale } from "@/lib/i18n/locales";
import type { DeliveryStep } from "@/lib/orders/delivery-plan";
import type { ItemDetail } from "./batches";

export function describeStep(step: DeliveryStep, t: Translate, locale: Locale): string {
  if (step.kind === "grant") return t("bulk.grantStep", { sku: step.sku, quantity: step.quantity });
  return locale === "en" ? step.kind : t(`event.${step.kind}`);
}

export function describeItem(detail: ItemDetail | string | null, t: Translate, locale: Locale): string {
  if (detail === null) return "";
  if (typeof detail === "string") return detail; // written before outcomes were data
  const steps = (detail.steps ?? []).map((s) => `${describeStep(s.step, t, locale)}: ${t(`bulk.stepResults.${s.result}`)}`);
  return [...steps, ...(detail.problem ? [describeProblem(detail.problem, t, locale)] : [])].join("; ");
}

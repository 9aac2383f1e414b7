import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { authorizationProblemOf } from "@/lib/stores/apple/server-api-authorization";
import { API_KEYS_ENV } from "@/lib/stores/apple/server-api-keys";
import { PAST_DEADLINE } from "@/lib/stores/reviews/model";

/**
 * Why the answer has not reached the store. A missing or broken App Store key and a passed deadline
 * are ours to word; any other error (what Apple or the network said) is shown as recorded, so
 * nothing is hidden.
 */
export function ReviewLastError({ error }: { error: string }) {
  const t = useTranslations("refundReviews.review");
  if (error === PAST_DEADLINE) return <Alert tone="error">{t("notSent.past-deadline")}</Alert>;
  const problem = authorizationProblemOf(error);
  return (
    <Alert tone="error">
      {problem ? t(`notSent.${problem.kind}`, { env: API_KEYS_ENV, field: problem.kind === "key-invalid" ? problem.field : "" }) : t("lastError", { error })}
    </Alert>
  );
}

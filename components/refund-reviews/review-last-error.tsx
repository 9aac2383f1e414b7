import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { API_KEYS_ENV } from "@/lib/stores/apple/server-api-keys";
import { notSentReason } from "@/lib/stores/reviews/not-sent";

/**
 * Why the answer has not reached the store, in the reader's language; an error that is not ours to
 * word (what Apple or the network said) is shown as recorded, so nothing is hidden.
 */
export function ReviewLastError({ error }: { error: string }) {
  const t = useTranslations("refundReviews.review");
  const reason = notSentReason(error);
  return (
    <Alert tone="error">
      {reason ? t(`notSent.${reason.kind}`, { env: API_KEYS_ENV, field: reason.kind === "key-invalid" ? reason.field : "" }) : t("lastError", { error })}
    </Alert>
  );
}

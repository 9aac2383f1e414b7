import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import type { ReviewProblem, ReviewState } from "@/lib/stores/reviews/review-state";

/**
 * Why the answer has not reached the store, in the reader's language, and what to do about it; an
 * error that is not ours to word (what Apple or the network said) is shown as recorded, so nothing
 * is hidden. `state` is reviewState's: a retry on its way is news, an answer that cannot go out is
 * an error with the way out. `keysEnv` names the setting that holds the App Store keys (the read
 * model's: the module that reads them is the server's only).
 */
export function ReviewProblemNotice({ problem, state, keysEnv }: { problem: ReviewProblem; state: Pick<ReviewState, "status" | "answerable">; keysEnv: string }) {
  const t = useTranslations("refundReviews.review");
  const said =
    problem.kind === "store-error"
      ? t(state.status === "retrying" ? "retrying" : "lastError", { error: problem.error })
      : t(`notSent.${problem.kind}`, { env: keysEnv, field: problem.kind === "key-invalid" ? problem.field : "" });
  return (
    <Alert tone={state.status === "retrying" ? "warning" : "error"}>
      <span data-testid="review-problem">{said}</span>
      {state.status === "not-sent" && state.answerable ? <span className="block">{t("sendAgain")}</span> : null}
    </Alert>
  );
}

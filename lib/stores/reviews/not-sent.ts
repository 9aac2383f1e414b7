import "server-only";
import { authorizationProblemOf, type AuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { PAST_DEADLINE } from "./model";

/** Why a review's answer has not reached the store, when it is ours to say: a key problem or a passed deadline. */
export type NotSentReason = AuthorizationProblem | { readonly kind: "past-deadline" };

/**
 * The review's stored last error (the relay writes English, for the logs) back as data; null for
 * any other error — what Apple or the network said — which is shown as recorded.
 */
export function notSentReason(error: string): NotSentReason | null {
  return error === PAST_DEADLINE ? { kind: "past-deadline" } : authorizationProblemOf(error);
}

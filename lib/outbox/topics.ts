// The topics the outbox carries, for the deliveries page's filter menu. Pure. The filter takes any
// topic name (older rows keep theirs); these are the ones the code writes today.
import { REVIEW_ANSWER_TOPIC } from "./answer-topic";

export const OUTBOX_TOPICS = ["order.transitioned", "order.granted", "refund.requested", REVIEW_ANSWER_TOPIC] as const;

/** A topic that goes to a store's own API, not to the tenant's webhook: resend and test sends are for webhooks. */
export function isWebhookTopic(topic: string): boolean {
  return topic !== REVIEW_ANSWER_TOPIC;
}

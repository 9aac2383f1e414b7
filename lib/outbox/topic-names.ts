// How the console names each outbox topic in words (deliveries.topics.*). Pure: the topic names have
// dots, which the message catalogue reads as nesting, so each has a key of its own here.
import { REVIEW_ANSWER_TOPIC } from "./answer-topic";
import type { OUTBOX_TOPICS } from "./topics";

export type TopicWord = "transitioned" | "granted" | "refundRequested" | "reviewAnswer";

export const TOPIC_WORD: Readonly<Record<(typeof OUTBOX_TOPICS)[number], TopicWord>> = {
  "order.transitioned": "transitioned",
  "order.granted": "granted",
  "refund.requested": "refundRequested",
  [REVIEW_ANSWER_TOPIC]: "reviewAnswer",
};

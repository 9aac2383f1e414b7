// The outbox topic of an answer on its way to the store. Its own module (no zod, nothing
// server-side), so the order timeline can name such messages in the browser: the store models
// build zod objects when loaded, and zod probes `new Function`, which the console's CSP refuses.
export const REVIEW_ANSWER_TOPIC = "store.refund-review-answer";

// The note the outbox relay leaves on a message it did not send because its tenant has no webhook
// URL (see NO_WEBHOOK in outbox-relay.ts for why such a message is marked `delivered`). Pure and
// apart from the relay, so the order timeline can tell "delivered" from "never sent" in the browser.
export const NO_WEBHOOK = "no webhook configured";

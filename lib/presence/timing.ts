// How often an open order page says it is still there, and how long the server believes it: read by
// the page (components/orders/live-order.tsx), the server (lib/presence/order-presence.ts) and the
// bench, so the three never disagree. Pure.

/** How often an open, visible order page polls. */
export const POLL_SECONDS = 3;

/**
 * How long a row outlives its last poll: a few missed polls (a slow network, a busy machine) do not
 * make a colleague flicker away; a crashed tab or a dead node is gone within this.
 */
export const PRESENCE_TTL_SECONDS = 15;

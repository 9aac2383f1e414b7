// How many messages one bulk resend takes: a leaf, so the deliveries page's form can say it before
// the server refuses (lib/deliveries/bulk-resend.ts enforces it). A larger incident is resent in
// slices of time.
export const MAX_RESEND_BATCH = 5_000;

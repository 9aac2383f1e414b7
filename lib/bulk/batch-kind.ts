// What a bulk batch does to its items: a leaf vocabulary (the migration's check constraint lists the
// same). "compensation": repair delivery on a list of orders (the /bulk page); "resend": send every
// dead webhook message of a product since a time again (the deliveries page).

export const BATCH_KINDS = ["compensation", "resend"] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

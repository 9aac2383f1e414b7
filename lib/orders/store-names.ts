// The stores whose purchases pay orders (store_purchases.store): App Store and Google Play. A leaf
// in lib/orders because the order search finds an order by its store transaction, while lib/stores,
// which reads those stores' notifications, builds on lib/orders.
export const STORES = ["appstore", "googleplay"] as const;
export type StoreName = (typeof STORES)[number];

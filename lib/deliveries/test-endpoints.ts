// The endpoints of a product a test send can ping: a leaf, so the deliveries page's form offers the
// same list the server accepts (lib/deliveries/test-send.ts).
export const TEST_ENDPOINTS = ["webhook", "grant", "revoke"] as const;
export type TestEndpoint = (typeof TEST_ENDPOINTS)[number];

import { storeRoute } from "@/lib/api/route";
import { storeNotificationAnswer } from "@/lib/api/v1/respond";
import { pushBody } from "@/lib/stores/google/model";
import { pushTokenIssuer } from "@/lib/stores/google/push-keys";
import { receiveGooglePush } from "@/lib/stores/google/receive-notification";

// Google Play real-time developer notifications for one tenant, pushed by its Pub/Sub subscription
// (the push endpoint set on it). 200 only once the notification is stored, so Pub/Sub's redeliveries
// (on anything else) are safe; a redelivered messageId is 200 again and changes nothing. A push
// without Google's OIDC token for the tenant's audience and service account, or for another
// package, is refused (401/403) and recorded as an audit fact.

export const POST = storeRoute({ name: "v1.stores.google.notifications", input: pushBody }, async ({ input, params, headers }) => {
  return storeNotificationAnswer(await receiveGooglePush({ tenantId: String(params.tenant), body: input, authorization: headers.get("authorization"), issuer: pushTokenIssuer(), now: new Date() }));
});

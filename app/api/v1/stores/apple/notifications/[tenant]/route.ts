import { storeRoute } from "@/lib/api/route";
import { storeNotificationAnswer } from "@/lib/api/v1/respond";
import { notificationBody } from "@/lib/stores/apple/model";
import { receiveAppleNotification } from "@/lib/stores/apple/receive-notification";
import { trustedAppleRoots } from "@/lib/stores/apple/trusted-roots";

// App Store Server Notifications V2 for one tenant (the URL its App Store Connect app is set to).
// 200 only once the notification is stored, so Apple's retries (on anything else) are safe; a
// retry of a stored notificationUUID is 200 again and changes nothing. What does not verify up to
// Apple's root, or is for another app or environment, is refused (4xx) and recorded as an audit fact.

export const POST = storeRoute({ name: "v1.stores.apple.notifications", input: notificationBody }, async ({ input, params }) => {
  return storeNotificationAnswer(await receiveAppleNotification({ tenantId: String(params.tenant), signedPayload: input.signedPayload, roots: trustedAppleRoots(), now: new Date() }));
});

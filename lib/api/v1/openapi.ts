// The OpenAPI 3.1 document of the integration API, generated from the zod schemas the routes
// parse with (OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod emits).
import { z } from "zod";
import { notificationBody } from "@/lib/stores/apple/model";
import { pushBody } from "@/lib/stores/google/model";
import { createOrderBody, errorBody, eventBody, grantBody, orderView, refundEventBody, refundView } from "./schemas";

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: string) => ({ required: true, content: { "application/json": { schema: ref(name) } } });
const reply = (description: string, schema: object) => ({ description, content: { "application/json": { schema } } });
const orderReply = (description: string) => reply(description, { type: "object", properties: { order: ref("Order") }, required: ["order"] });
const resultSchema = (results: string[], extra: Record<string, object>) => ({
  type: "object",
  properties: { result: { type: "string", enum: results }, order: ref("Order"), ...extra },
  required: ["result", "order"],
});
const resultReply = (description: string, results: string[]) => reply(description, resultSchema(results, {}));
/** A refused result: the error body plus the result and the order as it now is. */
const refusedReply = (description: string, results: string[], extra: Record<string, object> = {}) =>
  reply(description, { allOf: [ref("Error"), resultSchema(results, extra)] });
const error = (description: string) => reply(description, ref("Error"));
const orderNo = { name: "orderNo", in: "path", required: true, schema: { type: "string" } };
const refundId = { name: "refundId", in: "path", required: true, schema: { type: "string" }, description: "ours, as sent in the refund.requested webhook" };
const refundResult = (results: string[]) => ({
  type: "object",
  properties: { result: { type: "string", enum: results }, refund: ref("Refund") },
  required: ["result", "refund"],
});

const common = {
  "400": error("Invalid body (fields says which)."),
  "401": error("Missing, invalid or revoked API key."),
  "413": error("Body over 64 KiB."),
  "415": error("Body not sent as application/json."),
};

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Order Ops integration API",
      version: "1.0.0",
      description:
        "For payment channels and game servers. Authenticate with `Authorization: Bearer <key>`; the tenant always comes from the key. Every error body is `{ error: { code, message } }`. Refunds of stray payments (a payment after the order closed, a second payment) are asked of the channel with a signed `refund.requested` webhook carrying `{ tenantId, refundId, orderNo, channel, paymentTxn, amount, currency, reason }`; the channel answers through `POST /api/v1/refunds/{refundId}/events`.",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key made with `npm run cli -- apikey create`." } },
      schemas: {
        CreateOrder: json(createOrderBody),
        Event: json(eventBody),
        Grant: json(grantBody),
        Order: z.toJSONSchema(orderView),
        RefundEvent: json(refundEventBody),
        Refund: z.toJSONSchema(refundView),
        Error: z.toJSONSchema(errorBody),
        AppleNotification: json(notificationBody),
        GooglePlayPush: json(pushBody),
      },
    },
    paths: {
      "/api/v1/orders": {
        post: {
          summary: "Create an order",
          requestBody: body("CreateOrder"),
          responses: {
            "201": orderReply("Created."),
            "200": orderReply("The same orderNo with an identical body: the existing order."),
            "409": error("The orderNo exists with a different body."),
            ...common,
          },
        },
      },
      "/api/v1/orders/{orderNo}": {
        get: {
          summary: "Read an order, its lines and its history",
          parameters: [orderNo],
          responses: { "200": orderReply("The order."), "404": error("Unknown order."), "401": common["401"] },
        },
      },
      "/api/v1/orders/{orderNo}/events": {
        post: {
          summary: "Send an event to the order's state machine",
          parameters: [orderNo],
          requestBody: body("Event"),
          responses: {
            "200": resultReply("Applied, or a duplicate of an event already applied with this bizKey.", ["applied", "duplicate"]),
            "409": refusedReply("Illegal from the current state, or stale (the expected state or version no longer holds).", ["illegal", "stale"]),
            "422": refusedReply("Refused by the edge's guard (e.g. amount mismatch); an exception is filed for ops.", ["rejected"], {
              guard: { type: "string" },
            }),
            "404": error("Unknown order."),
            ...common,
          },
        },
      },
      "/api/v1/refunds/{refundId}/events": {
        post: {
          summary: "Answer a refund we asked for: confirm or fail it",
          parameters: [refundId],
          requestBody: body("RefundEvent"),
          responses: {
            "200": reply("Applied, or a duplicate of the answer already given with this bizKey.", refundResult(["applied", "duplicate"])),
            "409": reply("Illegal: the refund is already confirmed or failed (with another answer).", {
              allOf: [ref("Error"), { type: "object", properties: { result: { type: "string", enum: ["illegal"] }, refusal: { type: "object" }, refund: ref("Refund") } }],
            }),
            "404": error("Unknown refund (or another tenant's)."),
            ...common,
          },
        },
      },
      "/api/v1/stores/apple/notifications/{tenant}": {
        post: {
          summary: "App Store Server Notifications V2 for one tenant's app (called by Apple, not with a key)",
          description:
            "Set as the app's notification URL (Version 2) in App Store Connect. No API key: the body's JWS, verified up to Apple Root CA - G3 with the bundle id and environment of the tenant's settings, is the credential. 200 only once the notification is stored; a retry of a stored notificationUUID is a duplicate and changes nothing.",
          security: [],
          parameters: [{ name: "tenant", in: "path", required: true, schema: { type: "string" }, description: "the tenant (product) id" }],
          requestBody: body("AppleNotification"),
          responses: {
            "200": reply("Stored (and acted on), or a duplicate of a stored notification.", {
              type: "object",
              properties: { result: { type: "string", enum: ["stored", "duplicate"] }, outcome: { type: "string" }, notificationUUID: { type: "string" } },
              required: ["result", "outcome", "notificationUUID"],
            }),
            "401": error("Not signed by Apple: the signature or its certificate chain does not verify (recorded)."),
            "403": error("For another app or environment, or the tenant has connected no app (recorded)."),
            "404": error("Unknown tenant."),
            "400": common["400"],
            "413": common["413"],
            "415": common["415"],
          },
        },
      },
      "/api/v1/stores/google/notifications/{tenant}": {
        post: {
          summary: "Google Play real-time developer notifications for one tenant's app (pushed by Pub/Sub, not with a key)",
          description:
            "Set as the push endpoint of an authenticated Pub/Sub push subscription on the app's Real-time developer notifications topic. No API key: the push's OIDC token (`Authorization: Bearer <JWT>`, signed by Google) must carry the audience and service account of the tenant's settings, and the notification the tenant's package name. `message.data` is the base64 JSON DeveloperNotification. A voidedPurchaseNotification refunds the order its orderId paid (a quantity-based partial refund files a case for ops); other notifications are stored and ignored. 200 only once the notification is stored; a redelivered messageId is a duplicate and changes nothing.",
          security: [],
          parameters: [{ name: "tenant", in: "path", required: true, schema: { type: "string" }, description: "the tenant (product) id" }],
          requestBody: body("GooglePlayPush"),
          responses: {
            "200": reply("Stored (and acted on), or a duplicate of a stored message.", {
              type: "object",
              properties: { result: { type: "string", enum: ["stored", "duplicate"] }, outcome: { type: "string" }, notificationId: { type: "string" } },
              required: ["result", "outcome", "notificationId"],
            }),
            "401": error("No OIDC token, or one Google did not sign, or expired (recorded)."),
            "403": error("A token for another audience or service account, a notification for another package, or the tenant has connected no app (recorded)."),
            "404": error("Unknown tenant."),
            "400": error("Invalid body, or message.data is no developer notification (recorded)."),
            "413": common["413"],
            "415": common["415"],
          },
        },
      },
      "/api/v1/orders/{orderNo}/grants": {
        post: {
          summary: "Record a grant on one order line",
          parameters: [orderNo],
          requestBody: body("Grant"),
          responses: {
            "200": resultReply("Applied, or a duplicate grantId.", ["applied", "duplicate"]),
            "409": refusedReply("Over-delivery, or the order is not paid or delivering.", ["over-delivery", "invalid-state"]),
            "404": error("Unknown order."),
            ...common,
          },
        },
      },
    },
  };
}

// The integration API's contract, as zod schemas. The routes parse with them and the OpenAPI
// document is generated from them (lib/api/v1/openapi.ts), so the two cannot drift apart.
import { z } from "zod";
import { LINE_KINDS } from "@/lib/orders/take-back";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "@/lib/orders/machine";
import { REFUND_EVENTS, REFUND_STATUSES } from "@/lib/refunds/model";

const id = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._:@\/-]+$/, `${what} may use letters, digits and . _ : @ / -`);

export const lineInput = z.object({
  sku: id("sku"),
  kind: z.enum(LINE_KINDS),
  quantity: z.number().int().positive().max(1_000_000),
});

export const createOrderBody = z
  .object({
    orderNo: id("orderNo"),
    playerId: id("playerId"),
    currency: z.string().regex(/^[A-Z]{3}$/, "an ISO 4217 code such as CNY"),
    amount: z.number().int().positive().max(100_000_000).describe("integer minor units (fen for CNY)"),
    lines: z.array(lineInput).min(1).max(50),
  })
  .refine((o) => new Set(o.lines.map((l) => l.sku)).size === o.lines.length, { message: "each sku may appear once", path: ["lines"] });

export const eventBody = z.object({
  event: z.enum(ORDER_EVENTS),
  bizKey: z.string().max(128).describe("the business fact that makes this event unique: the channel transaction id for pay, the refund id for refund events"),
  reason: z.string().trim().max(500).optional(),
  // Whatever a channel reports must reach the amount guard, so a wrong amount is filed as an
  // exception (money that arrived is never dropped): bounded only by what the ledger can hold
  // exactly, never by what an order may cost.
  amount: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe("pay only: what the channel says was paid, in minor units (any positive integer up to 2^53-1)"),
  expectedState: z.enum(ORDER_STATES).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});

export const grantBody = z.object({
  sku: id("sku"),
  quantity: z.number().int().describe("units to grant; must be positive"),
  grantId: id("grantId").describe("stable per delivery attempt: the same grantId again is a duplicate, never a second grant"),
});

export const orderView = z.object({
  orderNo: z.string(),
  state: z.enum(ORDER_STATES),
  version: z.number().int(),
  stateAt: z.string().describe("ISO 8601"),
  amount: z.number().int(),
  currency: z.string(),
  playerId: z.string(),
  lines: z.array(z.object({ sku: z.string(), kind: z.string(), quantity: z.number().int(), granted: z.number().int(), pending: z.number().int() })),
  transitions: z.array(
    z.object({
      event: z.enum(ORDER_EVENTS),
      from: z.enum(ORDER_STATES),
      to: z.enum(ORDER_STATES),
      bizKey: z.string(),
      actor: z.string(),
      source: z.enum(SOURCES),
      reason: z.string().nullable(),
      at: z.string().describe("ISO 8601"),
    }),
  ),
});
export type OrderView = z.infer<typeof orderView>;

/** A payment channel's answer to a refund we asked it for (the refund.requested webhook). */
export const refundEventBody = z.object({
  event: z.enum(REFUND_EVENTS).describe("confirm: the money went back to the payer; fail: the channel could not refund"),
  bizKey: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .describe("the channel's own id for this answer (its refund receipt): the same event with the same bizKey again is a duplicate"),
  reason: z.string().trim().max(500).optional().describe("fail: why, in the channel's words"),
});

export const refundView = z.object({
  refundId: z.string(),
  status: z.enum(REFUND_STATUSES),
  amount: z.number().int().describe("integer minor units"),
  currency: z.string(),
  channel: z.string(),
  paymentTxn: z.string().describe("the channel's transaction id of the payment refunded"),
  orderNo: z.string().nullable(),
  channelRef: z.string().nullable().describe("the bizKey of the confirm or fail that settled it"),
  reason: z.string(),
  createdAt: z.string().describe("ISO 8601"),
  updatedAt: z.string().describe("ISO 8601"),
});
export type RefundView = z.infer<typeof refundView>;

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.array(z.string())).optional() }),
});

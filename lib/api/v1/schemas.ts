// The integration API's contract, as zod schemas. The routes parse with them and the OpenAPI
// document is generated from them (lib/api/v1/openapi.ts), so the two cannot drift apart.
import { z } from "zod";
import { LINE_KINDS } from "@/lib/orders/guards";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "@/lib/orders/machine";

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
  amount: z.number().int().positive().optional().describe("pay only: what the channel says was paid, in minor units"),
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

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.array(z.string())).optional() }),
});

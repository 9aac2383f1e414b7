// What the deliveries page can be asked, read from its query string field by field: a bad field (a
// hand-edited URL, a NUL) is dropped and named with its problem, the rest still filters. Pure.
import { z } from "zod";
import { instant, optional, readSearchFields } from "@/lib/audit/queries/filters";
import type { FieldProblem } from "@/lib/problems";
import { because } from "@/lib/validation";
import { OUTBOX_DELIVERIES, type OutboxDelivery } from "@/lib/outbox/delivery-status";

/** Rows per page. */
export const DELIVERIES_PAGE_SIZE = 50;

/** A page position: the last row's created_at (microseconds, as text: a Date would round it) and id. */
export interface DeliveryCursor {
  readonly at: string;
  readonly id: number;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([1-9]\d{0,17})$/;

/** "2026-12-02T09:41:03.541671Z_123": readable, and safe in a URL. */
export function encodeDeliveryCursor(cursor: DeliveryCursor): string {
  return `${cursor.at}_${cursor.id}`;
}

export function decodeDeliveryCursor(text: string): DeliveryCursor | null {
  const match = CURSOR.exec(text);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id) || Number.isNaN(Date.parse(match[1]!))) return null;
  return { at: match[1]!, id };
}

const shape = {
  tenant: optional(z.string().trim().regex(/^[a-z][a-z0-9-]{1,31}$/)),
  // Any topic name of the right shape: rows written by older versions keep theirs.
  topic: optional(z.string().trim().regex(/^[a-z][a-z0-9.-]{0,63}$/, because({ kind: "invalid-format" }))),
  status: optional(z.enum(OUTBOX_DELIVERIES, because({ kind: "invalid-choice", options: OUTBOX_DELIVERIES }))),
  order: optional(z.string().trim().max(64)),
  from: optional(instant),
  to: optional(instant),
  after: optional(
    z
      .string()
      .trim()
      .transform((text, ctx) => decodeDeliveryCursor(text) ?? (ctx.addIssue({ code: "custom", ...because({ kind: "page-position-unknown" }) }), z.NEVER)),
  ),
} as const;

export type DeliveryField = keyof typeof shape;

export interface DeliveryFilters {
  readonly tenant?: string;
  readonly topic?: string;
  readonly status?: OutboxDelivery;
  readonly order?: string;
  readonly from?: Date;
  readonly to?: Date;
}

export interface ParsedDeliverySearch {
  readonly filters: DeliveryFilters;
  readonly after: DeliveryCursor | null;
  readonly invalid: readonly { readonly field: DeliveryField; readonly problem: FieldProblem }[];
  /** The understood filters as text (no page position): to refill the form and build links. */
  readonly raw: Readonly<Partial<Record<Exclude<DeliveryField, "after">, string>>>;
}

export function parseDeliverySearch(query: string): ParsedDeliverySearch {
  const params = new URLSearchParams(query);
  const { values, raw, invalid } = readSearchFields<DeliveryField>(shape, (field) => params.get(field) ?? undefined);
  const { after, ...filters } = values as DeliveryFilters & { after?: DeliveryCursor };
  const { after: _position, ...understood } = raw;
  void _position;
  return { filters, after: after ?? null, invalid, raw: understood };
}

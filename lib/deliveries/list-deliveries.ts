import "server-only";
import { z } from "zod";
import { rows, type Queryable } from "@/lib/db/sql";
import { DELIVERY_CONDITION, outboxDelivery, type OutboxDelivery } from "@/lib/outbox/delivery-status";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import type { DeliveryCursor, DeliveryFilters } from "./delivery-filters";

// The deliveries page's list: outbox messages of the caller's tenants, newest first, in keyset pages.
// Each tenant is read on its own index range ((tenant_id, created_at, id), or with the status or the
// topic in front) and the few rows each gives are merged: a page is a handful of index probes at
// 1,000,000 messages, whatever the filters (bench/large-data.ts measures it).

export interface DeliveryListRow {
  readonly id: number;
  readonly tenantId: string;
  readonly topic: string;
  readonly orderNo: string | null;
  readonly delivery: OutboxDelivery;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
  /** When the relay will try next: only while queued or retrying. */
  readonly nextAttemptAt: Date | null;
  readonly deliveredAt: Date | null;
}

export interface DeliveryListPage {
  readonly rows: readonly DeliveryListRow[];
  /** The position of the next (older) page, or null on the last. */
  readonly older: DeliveryCursor | null;
}

/** A message's row as both the list and a message's own page read it (find-delivery.ts extends it). */
export const messageRowFields = z.object({
  id: z.number(),
  tenantId: z.string(),
  topic: z.string(),
  orderNo: z.string().nullable(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.coerce.date(),
  nextAttemptAt: z.coerce.date(),
  deliveredAt: z.coerce.date().nullable(),
});

const listRow = messageRowFields.extend({ at: z.string() });

/** The row as the page shows it: its status derived once, the next attempt only while one is due. */
export function deliveryListRow(r: z.infer<typeof messageRowFields>): DeliveryListRow {
  const delivery = outboxDelivery(r);
  return {
    id: r.id,
    tenantId: r.tenantId,
    topic: r.topic,
    orderNo: r.orderNo,
    delivery,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt,
    nextAttemptAt: delivery === "queued" || delivery === "retrying" ? r.nextAttemptAt : null,
    deliveredAt: r.deliveredAt,
  };
}

/** `tenants` is what the caller may read, already narrowed by the tenant filter. */
export async function listDeliveries(
  db: Queryable,
  query: { readonly tenants: readonly string[]; readonly filters: DeliveryFilters; readonly after: DeliveryCursor | null; readonly limit: number },
): Promise<DeliveryListPage> {
  if (query.tenants.length === 0) return { rows: [], older: null };
  const { filters: f } = query;
  const values: unknown[] = [query.tenants, query.limit + 1];
  const add = (value: unknown) => `$${values.push(value)}`;
  const where: string[] = ["m.tenant_id = t.tenant_id"];
  if (f.status !== undefined) where.push(DELIVERY_CONDITION[f.status](() => add(NO_WEBHOOK)));
  if (f.topic !== undefined) where.push(`m.topic = ${add(f.topic)}`);
  if (f.order !== undefined) where.push(`m.order_id IN (SELECT o.id FROM orders o WHERE o.tenant_id = t.tenant_id AND lower(o.order_no) = lower(${add(f.order)}))`);
  if (f.from !== undefined) where.push(`m.created_at >= ${add(f.from)}`);
  if (f.to !== undefined) where.push(`m.created_at < ${add(f.to)}`);
  if (query.after) where.push(`(m.created_at, m.id) < (${add(query.after.at)}::timestamptz, ${add(query.after.id)}::bigint)`);
  const found = await rows(
    db,
    listRow,
    `SELECT m.id::int AS id, m.tenant_id AS "tenantId", m.topic, o.order_no AS "orderNo", m.status, m.attempts,
            m.last_error AS "lastError", m.created_at AS "createdAt",
            to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
            m.next_attempt_at AS "nextAttemptAt", m.delivered_at AS "deliveredAt"
     FROM unnest($1::text[]) AS t(tenant_id)
     CROSS JOIN LATERAL (
       SELECT m.id, m.tenant_id, m.order_id, m.topic, m.status, m.attempts, m.last_error, m.created_at, m.next_attempt_at, m.delivered_at
       FROM outbox_messages m
       WHERE ${where.join(" AND ")}
       ORDER BY m.created_at DESC, m.id DESC
       LIMIT $2
     ) m
     LEFT JOIN orders o ON o.id = m.order_id
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT $2`,
    values,
  );
  const page = found.slice(0, query.limit);
  const last = page.at(-1);
  return {
    rows: page.map(deliveryListRow),
    older: found.length > query.limit && last ? { at: last.at, id: last.id } : null,
  };
}

// The console's queries that must stay fast on a million orders, as the console calls them — the
// app's own query functions (no copies of their SQL). Shared by the large-data benchmark (timings)
// and bench/explain.integration.test.ts (plans on a small database).
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { PAGE_SIZE as AUDIT_PAGE_SIZE } from "@/lib/audit/queries/filters";
import { listAuditRows } from "@/lib/audit/queries/audit-rows";
import { jumpTarget } from "@/lib/orders/queries/jump-to-order";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { loadQueues } from "@/lib/read/queues";
import { searchOrders } from "@/lib/orders/queries/search-orders";
import { DELIVERIES_PAGE_SIZE } from "@/lib/deliveries/delivery-filters";
import { listDeliveries } from "@/lib/deliveries/list-deliveries";

/** A manager who sees both demo products: the widest scope the console has. */
export const SCOPE = ["fangzhou", "xiaoxiao"] as const;

/** Real values to look up, drawn from the database at random (different ones per sample). */
export interface QueryInputs {
  readonly orders: readonly { readonly tenantId: string; readonly orderNo: string; readonly playerId: string }[];
  /** Payment transaction ids: the bizKey of `pay` transitions. */
  readonly payments: readonly string[];
  /** Audit explorer positions deep in the history (random transitions, on average halfway down). */
  readonly deepCursors: readonly { readonly at: string; readonly id: number }[];
  /**
   * Ids staff paste into the header search that are not an order's own row or its accepted payment
   * (issue 29), taken in turn: an order no in lower case, a grant id, a refund receipt, a second
   * payment's transaction id, a channel refund's id and the channel's reference for it.
   */
  readonly pastedIds: readonly string[];
  /** Deliveries page positions deep in the outbox (random messages): issue 27's keyset pages. */
  readonly deliveryCursors: readonly { readonly at: string; readonly id: number }[];
  /** Order nos that have outbox messages, for the deliveries page's order filter. */
  readonly deliveryOrders: readonly string[];
}

export interface ConsoleQuery {
  readonly key: string;
  readonly title: string;
  /** One the issues set a target for (the others are shown for context). */
  readonly targeted: boolean;
  /** The n-th sample's call. */
  run(inputs: QueryInputs, n: number): Promise<unknown>;
}

/** The deliveries list reads through a Queryable: the benchmark's own pool (captureStatements watches it). */
const deliveriesDb = () => getPool();

const pick = <T>(list: readonly T[], n: number): T => {
  if (list.length === 0) throw new Error("no sample inputs");
  return list[n % list.length]!;
};

export const CONSOLE_QUERIES: readonly ConsoleQuery[] = [
  {
    key: "order-no",
    title: "order lookup by order no (orders search)",
    targeted: true,
    run: (inputs, n) => searchOrders({ scope: SCOPE, q: pick(inputs.orders, n).orderNo }),
  },
  {
    key: "player",
    title: "order lookup by player id (orders search)",
    targeted: true,
    run: (inputs, n) => searchOrders({ scope: SCOPE, q: pick(inputs.orders, n).playerId }),
  },
  {
    key: "payment",
    title: "order lookup by payment transaction id (orders search)",
    targeted: true,
    run: (inputs, n) => searchOrders({ scope: SCOPE, q: pick(inputs.payments, n) }),
  },
  {
    key: "any-id",
    title: "header search by any other id the console shows (lower-case order no, grant id, refund receipt, second payment, channel refund id and reference)",
    targeted: true,
    run: (inputs, n) => jumpTarget(SCOPE, pick(inputs.pastedIds, n)),
  },
  {
    key: "stuck-queue",
    title: "stuck queue (queues page: stuck per state, case queue, counts)",
    targeted: true,
    run: () => loadQueues(SCOPE),
  },
  {
    key: "case-queue-mine",
    title: "case queue, mine (queues page: an ops member's own cases, with every filter's count)",
    targeted: true,
    run: () => loadQueues(SCOPE, { viewer: { actor: "staff:ops@example.com", role: "ops" }, caseFilter: "mine" }),
  },
  {
    key: "case-queue-overdue",
    title: "case queue, overdue (queues page)",
    targeted: true,
    run: () => loadQueues(SCOPE, { viewer: { actor: "staff:ops@example.com", role: "ops" }, caseFilter: "overdue" }),
  },
  {
    key: "audit-first",
    title: "audit explorer, first page",
    targeted: true,
    run: () => listAuditRows({ scope: SCOPE, filters: {}, position: {}, limit: AUDIT_PAGE_SIZE }),
  },
  {
    key: "audit-deep",
    title: "audit explorer, deep keyset page",
    targeted: true,
    run: (inputs, n) => {
      const cursor = pick(inputs.deepCursors, n);
      return listAuditRows({ scope: SCOPE, filters: {}, position: { after: { ...cursor, log: "transition" } }, limit: AUDIT_PAGE_SIZE });
    },
  },
  {
    key: "order-page",
    title: "order page (order detail: lines, grants, history, outbox, exceptions)",
    targeted: false,
    run: (inputs, n) => {
      const order = pick(inputs.orders, n);
      return getOrderDetail(order.tenantId, order.orderNo);
    },
  },
  // The deliveries page (issue 27): every message newest first, in the widest scope, as keyset pages.
  {
    key: "deliveries-first",
    title: "deliveries page, first page, no filter (newest first)",
    targeted: true,
    run: (_inputs, _n) => listDeliveries(deliveriesDb(), { tenants: SCOPE, filters: {}, after: null, limit: DELIVERIES_PAGE_SIZE }),
  },
  {
    key: "deliveries-dead",
    title: "deliveries page filtered to dead",
    targeted: true,
    run: () => listDeliveries(deliveriesDb(), { tenants: SCOPE, filters: { status: "dead" }, after: null, limit: DELIVERIES_PAGE_SIZE }),
  },
  {
    key: "deliveries-deep",
    title: "deliveries page, deep keyset page",
    targeted: true,
    run: (inputs, n) => listDeliveries(deliveriesDb(), { tenants: SCOPE, filters: {}, after: pick(inputs.deliveryCursors, n), limit: DELIVERIES_PAGE_SIZE }),
  },
  {
    key: "deliveries-order",
    title: "deliveries page filtered to one order no",
    targeted: true,
    run: (inputs, n) => listDeliveries(deliveriesDb(), { tenants: SCOPE, filters: { order: pick(inputs.deliveryOrders, n) }, after: null, limit: DELIVERIES_PAGE_SIZE }),
  },
  {
    key: "orders-list",
    title: "orders list, first page, no filter (newest first, with the total)",
    targeted: false,
    run: () => searchOrders({ scope: SCOPE }),
  },
  {
    key: "orders-stuck",
    title: "orders list filtered to stuck",
    targeted: false,
    run: () => searchOrders({ scope: SCOPE, stuck: true }),
  },
];

/**
 * Draws `n` random orders (with a payment where they have one) and `n` deep audit positions. Random
 * ids from the id range, so the sample costs n index probes, not a scan.
 */
export async function sampleInputs(pool: pg.Pool, n: number, seed = 42): Promise<QueryInputs> {
  const { rows: range } = await pool.query<{ lo: number; hi: number; tlo: number; thi: number }>(
    `SELECT (SELECT min(id) FROM orders) AS lo, (SELECT max(id) FROM orders) AS hi,
            (SELECT min(id) FROM order_transitions) AS tlo, (SELECT max(id) FROM order_transitions) AS thi`,
  );
  const { lo, hi, tlo, thi } = range[0]!;
  let state = seed;
  const random = () => {
    // mulberry32: the same samples for the same seed, run after run.
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ids = (from: number, to: number, k: number) => Array.from({ length: k }, () => from + Math.floor(random() * (to - from + 1)));

  const { rows: orders } = await pool.query<{ tenantId: string; orderNo: string; playerId: string }>(
    `SELECT tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId" FROM orders WHERE id = ANY($1::bigint[])
     ORDER BY array_position($1::bigint[], id)`,
    [ids(lo, hi, n * 2)],
  );
  const { rows: payments } = await pool.query<{ bizKey: string }>(
    `SELECT t.biz_key AS "bizKey" FROM unnest($1::bigint[]) AS x(order_id)
     CROSS JOIN LATERAL (SELECT biz_key FROM order_transitions t JOIN orders o ON o.id = t.order_id
                         WHERE o.id = x.order_id AND t.tenant_id = o.tenant_id AND t.event = 'pay' LIMIT 1) t`,
    [ids(lo, hi, n * 3)],
  );
  const { rows: deepCursors } = await pool.query<{ at: string; id: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM order_transitions
     WHERE id = ANY($1::bigint[]) ORDER BY array_position($1::bigint[], id)`,
    [ids(tlo, thi, n * 2)],
  );
  // Grants and refund receipts from random orders (index probes); cases and channel refunds are few
  // enough to draw from the whole table. A kind the data has none of is left out of the rotation.
  const { rows: pasted } = await pool.query<{ grants: string[]; receipts: string[]; cases: string[]; refunds: string[]; refs: string[] }>(
    `SELECT
       (SELECT coalesce(array_agg(g.grant_id), '{}') FROM unnest($1::bigint[]) AS x(order_id)
          CROSS JOIN LATERAL (SELECT grant_id FROM grants g JOIN orders o ON o.id = g.order_id AND o.tenant_id = g.tenant_id WHERE o.id = x.order_id LIMIT 1) g) AS grants,
       (SELECT coalesce(array_agg(t.biz_key), '{}') FROM unnest($1::bigint[]) AS x(order_id)
          CROSS JOIN LATERAL (SELECT biz_key FROM order_transitions t JOIN orders o ON o.id = t.order_id AND t.tenant_id = o.tenant_id
                              WHERE o.id = x.order_id AND t.event IN ('confirm-refund', 'reject-refund') AND t.biz_key <> '' LIMIT 1) t) AS receipts,
       (SELECT coalesce(array_agg(biz_key), '{}') FROM (SELECT biz_key FROM order_exceptions WHERE event = 'pay' AND biz_key <> '' AND order_id IS NOT NULL ORDER BY md5(id::text) LIMIT $2) e) AS cases,
       (SELECT coalesce(array_agg(refund_id), '{}') FROM (SELECT refund_id FROM payment_refunds WHERE order_id IS NOT NULL ORDER BY md5(id::text) LIMIT $2) r) AS refunds,
       (SELECT coalesce(array_agg(channel_ref), '{}') FROM (SELECT channel_ref FROM payment_refunds WHERE order_id IS NOT NULL AND channel_ref IS NOT NULL ORDER BY md5(id::text) LIMIT $2) r) AS refs`,
    [ids(lo, hi, n * 20), n],
  );
  const kinds = [orders.map((o) => o.orderNo.toLowerCase()), pasted[0]!.grants, pasted[0]!.receipts, pasted[0]!.cases, pasted[0]!.refunds, pasted[0]!.refs].filter((k) => k.length > 0);
  const pastedIds = Array.from({ length: n }, (_, i) => kinds[i % kinds.length]![Math.floor(i / kinds.length) % kinds[i % kinds.length]!.length]!);
  // Deliveries page positions and order nos from random outbox messages of the scope (index probes).
  const { rows: outbox } = await pool.query<{ lo: number | null; hi: number | null }>(`SELECT min(id)::bigint AS lo, max(id)::bigint AS hi FROM outbox_messages`);
  const { lo: mlo, hi: mhi } = outbox[0]!;
  const probes = mlo === null || mhi === null ? [] : ids(Number(mlo), Number(mhi), n * 4);
  const { rows: deliveryCursors } = await pool.query<{ at: string; id: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::int AS id FROM outbox_messages
     WHERE id = ANY($1::bigint[]) AND tenant_id = ANY($2::text[]) ORDER BY array_position($1::bigint[], id)`,
    [probes, SCOPE],
  );
  const { rows: deliveryOrders } = await pool.query<{ orderNo: string }>(
    `SELECT o.order_no AS "orderNo" FROM outbox_messages m JOIN orders o ON o.id = m.order_id
     WHERE m.id = ANY($1::bigint[]) AND m.tenant_id = ANY($2::text[]) ORDER BY array_position($1::bigint[], m.id)`,
    [probes, SCOPE],
  );
  return {
    orders: orders.slice(0, n),
    payments: payments.map((p) => p.bizKey).slice(0, n),
    deepCursors: deepCursors.slice(0, n),
    pastedIds,
    deliveryCursors: deliveryCursors.slice(0, n),
    deliveryOrders: deliveryOrders.map((o) => o.orderNo).slice(0, n),
  };
}

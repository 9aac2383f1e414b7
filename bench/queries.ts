// The console's queries that must stay fast on a million orders, as the console calls them — the
// app's own query functions (no copies of their SQL). Shared by the large-data benchmark (timings)
// and bench/explain.integration.test.ts (plans on a small database).
import type pg from "pg";
import { PAGE_SIZE as AUDIT_PAGE_SIZE } from "@/lib/audit/queries/filters";
import { listAuditRows } from "@/lib/audit/queries/audit-rows";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { loadQueues } from "@/lib/orders/queries/queues";
import { searchOrders } from "@/lib/orders/queries/search-orders";

/** A manager who sees both demo products: the widest scope the console has. */
export const SCOPE = ["fangzhou", "xiaoxiao"] as const;

/** Real values to look up, drawn from the database at random (different ones per sample). */
export interface QueryInputs {
  readonly orders: readonly { readonly tenantId: string; readonly orderNo: string; readonly playerId: string }[];
  /** Payment transaction ids: the bizKey of `pay` transitions. */
  readonly payments: readonly string[];
  /** Audit explorer positions deep in the history (random transitions, on average halfway down). */
  readonly deepCursors: readonly { readonly at: string; readonly id: number }[];
}

export interface ConsoleQuery {
  readonly key: string;
  readonly title: string;
  /** One of the six the issue sets a target for (the others are shown for context). */
  readonly targeted: boolean;
  /** The n-th sample's call. */
  run(inputs: QueryInputs, n: number): Promise<unknown>;
}

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
  return { orders: orders.slice(0, n), payments: payments.map((p) => p.bizKey).slice(0, n), deepCursors: deepCursors.slice(0, n) };
}

import "server-only";
import { getPool } from "@/lib/db/pool";
import { completeDelivery, type CompleteDeliveryResult } from "@/lib/orders/complete-delivery";
import { describePlan, planDelivery } from "@/lib/orders/delivery-plan";
import type { OrderState } from "@/lib/orders/machine";
import { lineProgress } from "@/lib/orders/progress";

// Bulk compensation after an incident: repair delivery on a list of orders, as one batch with its
// own id. Items are claimed with SKIP LOCKED, so two people running the same batch split the work;
// grants are keyed `bulk:<batch id>:…`, so rerunning a batch never grants twice.

export const ITEM_STATUSES = ["pending", "applied", "nothing-to-do", "refused", "failed"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface PreviewRow {
  readonly orderNo: string;
  readonly state: OrderState | null;
  readonly willApply: boolean;
  readonly plan: string;
}

/** The dry run: per order, what repair would do, or why not. Writes nothing. */
export async function previewBatch(tenantId: string, orderNos: readonly string[]): Promise<PreviewRow[]> {
  const { rows } = await getPool().query<{
    orderNo: string;
    state: OrderState;
    lines: { sku: string; quantity: number; granted: number; reversed: number }[] | null;
  }>(
    `SELECT o.order_no AS "orderNo", o.state,
       (SELECT json_agg(json_build_object('sku', l.sku, 'quantity', l.quantity,
           'granted', COALESCE(g.granted, 0), 'reversed', COALESCE(g.reversed, 0)) ORDER BY l.sku)
        FROM order_lines l
        LEFT JOIN LATERAL (SELECT SUM(quantity) FILTER (WHERE quantity > 0)::int AS granted,
                                  -SUM(quantity) FILTER (WHERE quantity < 0)::int AS reversed
                           FROM grants WHERE tenant_id = l.tenant_id AND order_id = l.order_id AND sku = l.sku) g ON true
        WHERE l.tenant_id = o.tenant_id AND l.order_id = o.id) AS lines
     FROM orders o WHERE o.tenant_id = $1 AND o.order_no = ANY($2)`,
    [tenantId, orderNos],
  );
  const found = new Map(rows.map((r) => [r.orderNo, r]));
  return orderNos.map((orderNo) => {
    const row = found.get(orderNo);
    if (!row) return { orderNo, state: null, willApply: false, plan: `no order ${orderNo} in ${tenantId}` };
    const plan = planDelivery(row.state, (row.lines ?? []).map((l) => lineProgress(l, l)));
    return { orderNo, state: row.state, willApply: plan.possible, plan: describePlan(plan) };
  });
}

/** Records the batch and its items; the same batch id again adds nothing. */
export async function createBatch(input: {
  batchId: string;
  tenantId: string;
  orderNos: readonly string[];
  reason: string;
  actor: string;
}): Promise<void> {
  await getPool().query(
    `WITH b AS (
       INSERT INTO bulk_batches (id, tenant_id, created_by, reason, total) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING RETURNING id
     )
     INSERT INTO bulk_batch_items (tenant_id, batch_id, order_no, position)
     SELECT $2, b.id, x.order_no, x.position - 1 FROM b, unnest($6::text[]) WITH ORDINALITY AS x(order_no, position)`,
    [input.batchId, input.tenantId, input.actor, input.reason, input.orderNos.length, input.orderNos],
  );
}

export interface BatchSummary {
  readonly batchId: string;
  readonly tenantId: string;
  readonly reason: string;
  readonly total: number;
  readonly counts: Readonly<Record<ItemStatus, number>>;
}

export async function batchSummary(batchId: string): Promise<BatchSummary | null> {
  const { rows } = await getPool().query<{ tenantId: string; reason: string; total: number; counts: Record<string, number> | null }>(
    `SELECT b.tenant_id AS "tenantId", b.reason, b.total,
            (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM bulk_batch_items
                                                     WHERE batch_id = b.id GROUP BY status) s) AS counts
     FROM bulk_batches b WHERE b.id = $1`,
    [batchId],
  );
  const row = rows[0];
  if (!row) return null;
  const counts = Object.fromEntries(ITEM_STATUSES.map((s) => [s, row.counts?.[s] ?? 0])) as Record<ItemStatus, number>;
  return { batchId, tenantId: row.tenantId, reason: row.reason, total: row.total, counts };
}

/** Failed items go back to pending, so running the batch again retries them (and only them). */
export async function retryFailed(batchId: string): Promise<void> {
  await getPool().query(`UPDATE bulk_batch_items SET status = 'pending', updated_at = now() WHERE batch_id = $1 AND status = 'failed'`, [batchId]);
}

function itemOutcome(result: CompleteDeliveryResult): { status: ItemStatus; detail: string } {
  switch (result.result) {
    case "completed":
      return { status: "applied", detail: result.steps.map((s) => `${s.step.kind === "grant" ? `grant ${s.step.sku} ×${s.step.quantity}` : s.step.kind}: ${s.result}`).join("; ") };
    case "not-possible":
      return { status: result.nothingToDo ? "nothing-to-do" : "refused", detail: result.reason };
    case "not-found":
      return { status: "refused", detail: "no such order" };
    case "in-progress":
      return { status: "failed", detail: "a repair was running on this order at the same time; run the batch again" };
    case "incomplete":
      return { status: "failed", detail: result.reason };
  }
}

/**
 * Claims up to `limit` pending items (SKIP LOCKED: another runner takes the next ones), repairs
 * each, records the outcome, and commits. Returns how many it handled; 0 means nothing is left.
 */
export async function runBatchChunk(input: { batchId: string; actor: string; limit?: number }): Promise<number> {
  const client = await getPool().connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ tenantId: string; orderNo: string; reason: string }>(
      `SELECT i.tenant_id AS "tenantId", i.order_no AS "orderNo", b.reason
       FROM bulk_batch_items i JOIN bulk_batches b ON b.id = i.batch_id
       WHERE i.batch_id = $1 AND i.status = 'pending'
       ORDER BY i.position LIMIT $2
       FOR UPDATE OF i SKIP LOCKED`,
      [input.batchId, input.limit ?? 20],
    );
    for (const item of rows) {
      const result = await completeDelivery({
        tenantId: item.tenantId,
        orderNo: item.orderNo,
        actor: input.actor,
        source: "console",
        reason: `bulk compensation ${input.batchId}: ${item.reason}`,
        keyPrefix: `bulk:${input.batchId}`,
      });
      const { status, detail } = itemOutcome(result);
      await client.query(
        `UPDATE bulk_batch_items SET status = $4, detail = $5, updated_at = now() WHERE tenant_id = $1 AND batch_id = $2 AND order_no = $3`,
        [item.tenantId, input.batchId, item.orderNo, status, detail],
      );
    }
    await client.query("COMMIT");
    return rows.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface ItemRow {
  readonly position: number;
  readonly orderNo: string;
  readonly status: ItemStatus;
  readonly detail: string | null;
  readonly updatedAt: Date;
}

export async function batchItems(batchId: string): Promise<ItemRow[]> {
  const { rows } = await getPool().query<ItemRow>(
    `SELECT position, order_no AS "orderNo", status, detail, updated_at AS "updatedAt"
     FROM bulk_batch_items WHERE batch_id = $1 ORDER BY position`,
    [batchId],
  );
  return rows;
}

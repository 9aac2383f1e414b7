import "server-only";
import type pg from "pg";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { lineLedgerSql } from "@/lib/orders/rows";
import { CASES_ACTOR, UNRECORDED_PREFIX, type Resolution } from "./model";

// Cases the system closes by itself, with itself as the actor: a goods case once the order's lines
// are complete (or the order ended and owes nothing), a money case once the channel confirms its
// refund. Each closing is one transaction with its audit fact.

const lockedCase = z.object({ id: z.number(), kind: z.string(), resolution: z.string().nullable() });
const orderFacts = z.object({ state: z.string(), pending: z.number() });

const DELIVERY_ACTIVE = `status IN ('open', 'in-progress') AND kind IN ('delivery-incomplete', 'delivery-failed')
  AND biz_key NOT LIKE '${UNRECORDED_PREFIX}%'`;

/**
 * Resolves the order's open goods cases when nothing is owed any more: every line granted in full
 * (`delivered`, or the resolution a person chose — repair, compensate — that got it there), or the
 * order refunded or closed (`order-ended`). Grants the game server made that the ledger refused
 * (UNRECORDED_PREFIX) stay for a person: a completed delivery says nothing about them. Returns how
 * many cases it resolved.
 */
export async function settleDeliveryCases(input: { tenantId: string; orderId: number; actor?: string }, pool: pg.Pool = getPool()): Promise<number> {
  const actor = input.actor ?? CASES_ACTOR;
  return transaction(
    async ({ client, prisma }: PrismaTransaction) => {
      const cases = await rows(
        client,
        lockedCase,
        `SELECT id, kind, resolution FROM order_exceptions WHERE tenant_id = $1 AND order_id = $2 AND ${DELIVERY_ACTIVE} ORDER BY id FOR UPDATE`,
        [input.tenantId, input.orderId],
      );
      if (cases.length === 0) return 0;
      const order = await one(
        client,
        orderFacts,
        `SELECT o.state, (SELECT count(*) FROM (${lineLedgerSql("$1", "$2")}) l WHERE l.granted < l.quantity)::int AS pending
         FROM orders o WHERE o.id = $2`,
        [input.tenantId, input.orderId],
      );
      const ended = order.state === "refunded" || order.state === "closed";
      if (order.pending > 0 && !ended) return 0;
      for (const c of cases) {
        const resolution: Resolution = order.pending === 0 ? ((c.resolution as Resolution | null) ?? "delivered") : "order-ended";
        await execute(
          client,
          `UPDATE order_exceptions SET status = 'resolved', resolution = $2, resolved_at = now(), resolved_by = $3 WHERE id = $1`,
          [c.id, resolution, actor],
        );
        await audit(
          { actor, action: "case.resolved", tenantId: input.tenantId, orderId: input.orderId, target: `case:${c.id}`, detail: { caseId: c.id, kind: c.kind, resolution, state: order.state } },
          prisma,
        );
      }
      return cases.length;
    },
    { pool, prisma: true, retry: { label: "settle delivery cases" } },
  );
}

const candidateRow = z.object({ tenantId: z.string(), orderId: z.number() });

/**
 * The worker's sweep: goods cases whose order no longer owes anything, however that came about (the
 * game server's grants through the API, a repair, a compensation, the coordinator, a refund). Reads
 * the active cases through their partial index — a few hundred rows at most — and settles each
 * order's. Returns how many cases it resolved.
 */
export async function sweepDeliveryCases(options: { pool?: pg.Pool; limit?: number } = {}): Promise<number> {
  const pool = options.pool ?? getPool();
  const candidates = await rows(
    pool,
    candidateRow,
    `SELECT DISTINCT e.tenant_id AS "tenantId", e.order_id AS "orderId"
     FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE e.status IN ('open', 'in-progress') AND e.kind IN ('delivery-incomplete', 'delivery-failed')
       AND e.biz_key NOT LIKE '${UNRECORDED_PREFIX}%'
       AND (o.state IN ('delivered', 'refunded', 'closed')
            OR NOT EXISTS (SELECT 1 FROM (${lineLedgerSql("e.tenant_id", "e.order_id")}) l WHERE l.granted < l.quantity))
     LIMIT $1`,
    [options.limit ?? 200],
  );
  let resolved = 0;
  for (const c of candidates) resolved += await settleDeliveryCases(c, pool);
  return resolved;
}

/**
 * Closes a money case whose refund the channel confirmed, inside the refund event's transaction:
 * unless another refund of the case is still with the channel (then the last confirmation closes it).
 */
export async function settleRefundedCase(tx: PrismaTransaction, input: { tenantId: string; caseId: number; refundId: string }): Promise<boolean> {
  const c = await one(
    tx.client,
    z.object({ id: z.number(), kind: z.string(), status: z.string(), resolution: z.string().nullable(), orderId: z.number().nullable() }),
    `SELECT id, kind, status, resolution, order_id AS "orderId" FROM order_exceptions WHERE id = $1 FOR UPDATE`,
    [input.caseId],
  );
  if (c.status !== "open" && c.status !== "in-progress") return false;
  const { pending } = await one(
    tx.client,
    z.object({ pending: z.number() }),
    `SELECT count(*)::int AS pending FROM payment_refunds WHERE tenant_id = $1 AND case_id = $2 AND status IN ('requested', 'sent')`,
    [input.tenantId, input.caseId],
  );
  if (pending > 0) return false;
  const resolution: Resolution = (c.resolution as Resolution | null) ?? "refund";
  await execute(
    tx.client,
    `UPDATE order_exceptions SET status = 'resolved', resolution = $2, resolved_at = now(), resolved_by = $3 WHERE id = $1`,
    [c.id, resolution, CASES_ACTOR],
  );
  await audit(
    {
      actor: CASES_ACTOR,
      action: "case.resolved",
      tenantId: input.tenantId,
      orderId: c.orderId,
      target: `case:${c.id}`,
      detail: { caseId: c.id, kind: c.kind, resolution, refundId: input.refundId },
    },
    tx.prisma,
  );
  return true;
}

import "server-only";
import { getPool, isUniqueViolation } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { transit, type TransitResult } from "@/lib/orders/transit";

// Four eyes on large refunds: a console request-refund above the tenant's approval amount becomes
// a pending approval; a manager other than the requester approves (through transit()) or rejects.

/** The order's amount and whether a console refund of it needs a manager's approval. */
export async function refundNeedsApproval(orderId: number): Promise<boolean> {
  const { rows } = await getPool().query<{ needs: boolean }>(
    `SELECT o.amount > s.refund_approval_amount AS needs FROM orders o JOIN tenant_settings s ON s.tenant_id = o.tenant_id WHERE o.id = $1`,
    [orderId],
  );
  return rows[0]?.needs ?? false;
}

export type RequestResult = { readonly result: "requested" | "duplicate"; readonly id: number } | { readonly result: "already-pending"; readonly id: number };

export async function requestRefundApproval(input: {
  tenantId: string;
  orderId: number;
  requestedBy: string;
  reason: string;
  requestKey: string;
}): Promise<RequestResult> {
  try {
    const { rows } = await getPool().query<{ id: number; inserted: boolean }>(
      `WITH ins AS (
         INSERT INTO refund_approvals (tenant_id, order_id, amount, requested_by, reason, request_key)
         SELECT $1, $2, amount, $3, $4, $5 FROM orders WHERE id = $2
         ON CONFLICT (tenant_id, order_id, request_key) DO NOTHING
         RETURNING id
       )
       SELECT id, true AS inserted FROM ins
       UNION ALL
       SELECT id, false FROM refund_approvals WHERE tenant_id = $1 AND order_id = $2 AND request_key = $5 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [input.tenantId, input.orderId, input.requestedBy, input.reason, input.requestKey],
    );
    const row = rows[0];
    if (!row) throw new Error(`refund approval for order ${input.orderId} neither inserted nor found`);
    return { result: row.inserted ? "requested" : "duplicate", id: row.id };
  } catch (error) {
    if (!isUniqueViolation(error, "refund_approvals_one_pending_idx")) throw error;
    const { rows } = await getPool().query<{ id: number }>(
      `SELECT id FROM refund_approvals WHERE tenant_id = $1 AND order_id = $2 AND status = 'pending'`,
      [input.tenantId, input.orderId],
    );
    return { result: "already-pending", id: rows[0]?.id ?? 0 };
  }
}

export interface PendingApproval {
  readonly id: number;
  readonly tenantId: string;
  readonly orderNo: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: string;
  readonly requestedBy: string;
  readonly reason: string;
  readonly createdAt: Date;
}

export async function listPendingApprovals(tenantIds: readonly string[]): Promise<PendingApproval[]> {
  const { rows } = await getPool().query<PendingApproval>(
    `SELECT a.id, a.tenant_id AS "tenantId", o.order_no AS "orderNo", a.amount, o.currency, o.state,
            a.requested_by AS "requestedBy", a.reason, a.created_at AS "createdAt"
     FROM refund_approvals a JOIN orders o ON o.id = a.order_id
     WHERE a.tenant_id = ANY($1) AND a.status = 'pending'
     ORDER BY a.created_at`,
    [tenantIds],
  );
  return rows;
}

export type DecisionResult =
  | { readonly result: "approved"; readonly transit: TransitResult["result"] }
  | { readonly result: "rejected" }
  | { readonly result: "not-applied"; readonly reason: string };

/**
 * Approve or reject a pending request. Approval applies request-refund through transit() with the
 * bizKey `approval:<id>`, so two managers approving at once apply it once. The requester can never
 * decide their own request (checked here, and by a CHECK constraint in the database).
 */
export async function decideRefundApproval(input: {
  id: number;
  approve: boolean;
  decidedBy: string;
  reason: string;
  tenantIds: readonly string[];
}): Promise<DecisionResult> {
  const { rows } = await getPool().query<{ orderId: number; requestedBy: string; status: string; request: string }>(
    `SELECT order_id AS "orderId", requested_by AS "requestedBy", status, reason AS request FROM refund_approvals WHERE id = $1 AND tenant_id = ANY($2)`,
    [input.id, input.tenantIds],
  );
  const approval = rows[0];
  if (!approval) throw new AppError("not-found", "No such approval request.");
  if (approval.requestedBy === input.decidedBy) throw new AppError("forbidden", "You asked for this refund: another manager must decide it.");
  if (approval.status !== "pending") throw new AppError("conflict", `This request was already ${approval.status}.`);

  let outcome: DecisionResult = { result: "rejected" };
  let status: "approved" | "rejected" = "rejected";
  let decisionReason = input.reason;
  if (input.approve) {
    const applied = await transit({
      orderId: approval.orderId,
      event: "request-refund",
      bizKey: `approval:${input.id}`,
      actor: input.decidedBy,
      source: "console",
      reason: `approved (asked by ${approval.requestedBy}: ${approval.request}): ${input.reason}`,
    });
    if (applied.result === "applied" || applied.result === "duplicate") {
      status = "approved";
      outcome = { result: "approved", transit: applied.result };
    } else {
      const why = "reason" in applied ? applied.reason : applied.result;
      decisionReason = `approved, but the refund could not be requested: ${why}`;
      outcome = { result: "not-applied", reason: why };
    }
  }
  await getPool().query(
    `UPDATE refund_approvals SET status = $2, decided_by = $3, decision_reason = $4, decided_at = now() WHERE id = $1 AND status = 'pending'`,
    [input.id, status, input.decidedBy, decisionReason],
  );
  return outcome;
}

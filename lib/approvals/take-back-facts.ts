import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { ledgerBySku, orderProgress } from "@/lib/orders/progress";
import { storedTakeBackRules, type HeldLine, type TakeBackRules } from "@/lib/orders/take-back";

/** What a refund of a pending approval's order would take back is decided from these (as on the order page). */
export interface ApprovalTakeBackFacts {
  readonly lines: readonly HeldLine[];
  readonly rules: TakeBackRules;
  readonly revokeEndpointSet: boolean;
}

const factsRow = z.object({
  approvalId: z.number(),
  rules: storedTakeBackRules,
  revokeEndpointSet: z.boolean(),
  lines: z.array(z.object({ sku: z.string(), kind: z.string(), quantity: z.number() })),
  grants: z.array(z.object({ sku: z.string(), grantId: z.string(), quantity: z.number() })),
});

/**
 * For each pending approval, its order's lines as the grants ledger holds them and the product's
 * take-back rules: the manager who approves sees what the refund will take back, as the agent who
 * asked did. Each part is an index range on (tenant_id, order_id) of its table.
 */
export async function takeBackFactsByApproval(approvalIds: readonly number[]): Promise<ReadonlyMap<number, ApprovalTakeBackFacts>> {
  if (approvalIds.length === 0) return new Map();
  const found = await rows(
    getPool(),
    factsRow,
    `SELECT p.id AS "approvalId", coalesce(s.take_back_rules, '{}') AS rules, s.revoke_endpoint_url IS NOT NULL AS "revokeEndpointSet",
            (SELECT coalesce(json_agg(json_build_object('sku', l.sku, 'kind', l.kind, 'quantity', l.quantity) ORDER BY l.sku), '[]')
             FROM order_lines l WHERE l.tenant_id = p.tenant_id AND l.order_id = p.order_id) AS lines,
            (SELECT coalesce(json_agg(json_build_object('sku', g.sku, 'grantId', g.grant_id, 'quantity', g.quantity) ORDER BY g.id), '[]')
             FROM grants g WHERE g.tenant_id = p.tenant_id AND g.order_id = p.order_id) AS grants
     FROM refund_approvals p LEFT JOIN tenant_settings s ON s.tenant_id = p.tenant_id
     WHERE p.id = ANY($1::bigint[])`,
    [approvalIds],
  );
  return new Map(
    found.map((row) => {
      const progress = orderProgress(row.lines, ledgerBySku(row.grants));
      const lines = row.lines.map((line, i) => ({ sku: line.sku, kind: line.kind, expected: line.quantity, granted: progress[i]!.granted, reversed: progress[i]!.reversed }));
      return [row.approvalId, { lines, rules: row.rules, revokeEndpointSet: row.revokeEndpointSet }] as const;
    }),
  );
}

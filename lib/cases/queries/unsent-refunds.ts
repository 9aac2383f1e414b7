import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { refundReach, type NotSentWhy } from "../refund-reach";
import { caseRefundRow, REFUND_JSON } from "./case-select";

/** Refunds of a product that have not reached the channel, by why (the overview's card). */
export interface UnsentRefunds {
  readonly tenantId: string;
  readonly count: number;
  readonly why: Readonly<Partial<Record<NotSentWhy["kind"], number>>>;
}

const unsentRow = z.object({ tenantId: z.string(), webhookSet: z.boolean(), refund: caseRefundRow });

/**
 * The refunds of active cases that are still `requested` in the caller's tenants, judged by the same
 * rule as the case and the queue (refund-reach.ts): those that have not reached the channel, per
 * product, counted by why. Read through the active cases' partial index (a refund waiting on the
 * channel keeps its case active), capped like the overview's other counts.
 */
export async function unsentRefundCounts(scope: readonly string[], cap = 1_000): Promise<UnsentRefunds[]> {
  if (scope.length === 0) return [];
  const found = await rows(
    getPool(),
    unsentRow,
    `SELECT s.tenant_id AS "tenantId",
       coalesce((SELECT ts.webhook_url IS NOT NULL AND ts.signing_secret IS NOT NULL FROM tenant_settings ts WHERE ts.tenant_id = s.tenant_id), false) AS "webhookSet",
       ${REFUND_JSON} AS refund
     FROM unnest($1::text[]) AS s(tenant_id)
     CROSS JOIN LATERAL (
       SELECT x.id FROM order_exceptions x WHERE x.tenant_id = s.tenant_id AND x.status IN ('open', 'in-progress') ORDER BY x.sla_due_at LIMIT $2
     ) e
     JOIN payment_refunds r ON r.tenant_id = s.tenant_id AND r.case_id = e.id AND r.status = 'requested'`,
    [[...new Set(scope)], cap],
  );
  const byTenant = new Map<string, { count: number; why: Partial<Record<NotSentWhy["kind"], number>> }>();
  for (const row of found) {
    const reach = refundReach(row.refund, row.webhookSet);
    if (reach.kind !== "not-sent") continue;
    const tally = byTenant.get(row.tenantId) ?? { count: 0, why: {} };
    tally.count++;
    tally.why[reach.why.kind] = (tally.why[reach.why.kind] ?? 0) + 1;
    byTenant.set(row.tenantId, tally);
  }
  return [...byTenant].map(([tenantId, tally]) => ({ tenantId, ...tally }));
}

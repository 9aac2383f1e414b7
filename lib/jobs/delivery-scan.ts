import "server-only";
import { z } from "zod";
import { getPrisma } from "@/lib/db/prisma";
import { rows, type Queryable } from "@/lib/db/sql";
import { lineProgress } from "@/lib/orders/progress";
import { lineLedgerRow, lineLedgerSql } from "@/lib/orders/rows";
import { deliveryKey, type Claimer } from "./claim";
import { FAILURE_KEY } from "./delivery-record";

// The delivery coordinator's scan: which tenants it delivers for, which of their orders are due,
// claiming them batch by batch, and what each claimed order still owes.

export interface ManagedTenant {
  readonly tenantId: string;
  readonly grantEndpointUrl: string | null;
  readonly signingSecret: string;
}

/** Tenants in `managed` delivery mode. Tenants in `external` mode are never touched: their game server drives. */
export function managedTenants(): Promise<ManagedTenant[]> {
  return getPrisma().tenantSettings.findMany({
    where: { deliveryMode: "managed" },
    select: { tenantId: true, grantEndpointUrl: true, signingSecret: true },
    orderBy: { tenantId: "asc" },
  });
}

export type DeliveryState = "paid" | "delivering";

const candidateRow = z.object({
  id: z.number(),
  state: z.enum(["paid", "delivering"]),
  orderNo: z.string(),
  playerId: z.string(),
  /** Failed attempts so far (the open delivery-failed exception's count, delivery-record.ts). */
  failures: z.number(),
});
export type Candidate = z.output<typeof candidateRow>;

// An order is due unless its active delivery-failed case (delivery-record.ts) says to wait longer:
// a person working the case does not end the backoff, dismissing it does.
const DUE = `(e.detail IS NULL OR (e.detail->>'nextAttemptAt')::timestamptz <= $3)`;
const CANDIDATE_COLUMNS = `o.id, o.state, o.order_no AS "orderNo", o.player_id AS "playerId",
  COALESCE((e.detail->>'attempts')::int, 0) AS failures`;
// LATERAL … LIMIT 1: one unique-index probe per scanned order, whatever the statistics say (a plain
// join may be planned as a scan of the tenant's whole exceptions index).
const FAILURE_JOIN = `LEFT JOIN LATERAL (SELECT x.detail FROM order_exceptions x
  WHERE x.tenant_id = o.tenant_id AND x.order_id = o.id AND x.kind = 'delivery-failed' AND x.biz_key = '${FAILURE_KEY}'
    AND x.status IN ('open', 'in-progress') LIMIT 1) e ON true`;

export interface Scan {
  readonly tenantId: string;
  readonly state: DeliveryState;
  /** The coordinator's clock: what is due. */
  readonly now: Date;
  readonly batchSize: number;
  readonly signal?: AbortSignal;
}

/**
 * Walks the tenant's due orders in `state` by id (keyset), a batch at a time: claims each batch,
 * hands `work` the orders it got, and lets go of them before the next batch. Returns how many
 * candidates it skipped (another worker held them, or they moved or stopped being due meanwhile).
 */
export async function forEachDueBatch(claimer: Claimer, scan: Scan, work: (orders: readonly Candidate[]) => Promise<void>): Promise<number> {
  let skipped = 0;
  let cursor = 0;
  while (!scan.signal?.aborted) {
    const candidates = await rows(
      claimer.client,
      candidateRow,
      `SELECT ${CANDIDATE_COLUMNS} FROM orders o ${FAILURE_JOIN}
       WHERE o.tenant_id = $1 AND o.state = $2 AND o.id > $4 AND ${DUE}
       ORDER BY o.id LIMIT $5`,
      [scan.tenantId, scan.state, scan.now, cursor, scan.batchSize],
    );
    if (candidates.length === 0) break;
    cursor = candidates.at(-1)!.id;

    const mine = await claim(claimer, scan, candidates);
    skipped += candidates.length - mine.length;
    await work(mine);
    await claimer.unlockAll();
    if (candidates.length < scan.batchSize) break;
  }
  return skipped;
}

/** Locks what no other worker holds, then re-reads it: only what is still due is ours to work on. */
async function claim(claimer: Claimer, scan: Scan, candidates: readonly Candidate[]): Promise<Candidate[]> {
  const locked = await claimer.tryLock(candidates.map((c) => ({ id: c.id, key: deliveryKey(scan.tenantId, c.orderNo) })));
  if (locked.length === 0) return [];
  return rows(
    claimer.client,
    candidateRow,
    `SELECT ${CANDIDATE_COLUMNS} FROM orders o ${FAILURE_JOIN}
     WHERE o.tenant_id = $1 AND o.state = $2 AND o.id = ANY($4::bigint[]) AND ${DUE}
     ORDER BY o.id`,
    [scan.tenantId, scan.state, scan.now, locked],
  );
}

export interface PendingLine {
  readonly sku: string;
  readonly kind: string;
  /** Delivered so far: part of the next grantId (delivery-call.ts). */
  readonly granted: number;
  readonly pending: number;
}

/** The order's lines that still owe something, by sku. */
export async function pendingLines(db: Queryable, tenantId: string, orderId: number): Promise<PendingLine[]> {
  const lines = await rows(db, lineLedgerRow, lineLedgerSql("$1", "$2"), [tenantId, orderId]);
  return lines
    .map((line) => ({ ...lineProgress(line, { granted: line.granted, reversed: line.reversed }), kind: line.kind }))
    .filter((line) => line.pending > 0);
}

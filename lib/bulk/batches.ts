import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { audit } from "@/lib/audit/record";
import { getPrisma, type PrismaTx } from "@/lib/db/prisma";
import { rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { withClaimer } from "@/lib/jobs/claim";
import { planDelivery, type DeliveryStep } from "@/lib/orders/delivery-plan";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { lineProgress } from "@/lib/orders/progress";
import { repairDelivery, type RepairDeliveryResult, type StepOutcome } from "@/lib/orders/repair-delivery";
import { lineLedgerRow, lineLedgerSql } from "@/lib/orders/rows";
import type { RepairProblem } from "@/lib/problems";
import type { BatchKind } from "./batch-kind";
import { ITEM_STATUSES, type ItemStatus } from "./item-status";

// Bulk compensation after an incident: repair delivery on a list of orders, as one batch with its
// own id. Runners claim items with advisory try-locks, as the worker's jobs claim orders (no
// transaction stays open while the repairs run on other connections, so the single-writer embedded
// database never stalls), and grants are keyed `bulk:<batch id>:…`, so two people running the same
// batch split the work and rerunning a batch never grants twice.

/** What happened to one order of a batch, as data: the steps taken, or the problem that stopped it. */
export interface ItemDetail {
  readonly steps?: readonly StepOutcome[];
  readonly problem?: RepairProblem;
  /** A resend batch's item: what the single resend's rule answered (lib/deliveries/resend.ts). */
  readonly resend?: "resent" | "duplicate" | "on-its-way" | "not-a-webhook" | "not-found";
}

export type PreviewRow =
  | { readonly orderNo: string; readonly state: OrderState; readonly willApply: true; readonly steps: readonly DeliveryStep[] }
  | { readonly orderNo: string; readonly state: OrderState | null; readonly willApply: false; readonly problem: RepairProblem };

const previewRow = z.object({ orderNo: z.string(), state: z.enum(ORDER_STATES), lines: z.array(lineLedgerRow).nullable() });

/** The dry run: per order, what repair would do, or why not. Writes nothing. */
export async function previewBatch(tenantId: string, orderNos: readonly string[]): Promise<PreviewRow[]> {
  const found = await rows(
    getPool(),
    previewRow,
    `SELECT o.order_no AS "orderNo", o.state, (SELECT json_agg(l) FROM (${lineLedgerSql("o.tenant_id", "o.id")}) l) AS lines
     FROM orders o WHERE o.tenant_id = $1 AND o.order_no = ANY($2)`,
    [tenantId, orderNos],
  );
  const byNo = new Map(found.map((r) => [r.orderNo, r]));
  return orderNos.map((orderNo): PreviewRow => {
    const row = byNo.get(orderNo);
    if (!row) return { orderNo, state: null, willApply: false, problem: { kind: "order-not-found", orderNo } };
    const plan = planDelivery(row.state, (row.lines ?? []).map((l) => lineProgress(l, l)));
    return plan.possible
      ? { orderNo, state: row.state, willApply: true, steps: plan.steps }
      : { orderNo, state: row.state, willApply: false, problem: plan.problem };
  });
}

/**
 * Starts a batch, as one transaction with its audit fact: records the batch and its items (the same
 * batch id again adds nothing) and puts failed items back in line, so starting it again retries only
 * what failed. The work itself runs in chunks (runBatchChunk).
 */
export async function startBatch(input: {
  batchId: string;
  tenantId: string;
  /** The items' keys: order numbers (compensation) or message ids (resend). */
  orderNos: readonly string[];
  reason: string;
  actor: string;
  /** Default "compensation". */
  kind?: BatchKind;
  /** More for the start's audit fact (a resend batch's scope: since when). */
  detail?: Readonly<Record<string, unknown>>;
}): Promise<void> {
  const kind = input.kind ?? "compensation";
  return transaction(
    async ({ prisma }) => {
      const { count: created } = await prisma.bulkBatch.createMany({
        data: [{ id: input.batchId, tenantId: input.tenantId, createdBy: input.actor, reason: input.reason, total: input.orderNos.length, kind }],
        skipDuplicates: true,
      });
      if (created > 0) {
        await prisma.bulkBatchItem.createMany({
          data: input.orderNos.map((orderNo, position) => ({ tenantId: input.tenantId, batchId: input.batchId, orderNo, position })),
        });
      }
      const { count: retried } = await prisma.bulkBatchItem.updateMany({
        where: { batchId: input.batchId, status: "failed" },
        data: { status: "pending", updatedAt: new Date() },
      });
      await audit(
        {
          actor: input.actor,
          action: "bulk.started",
          tenantId: input.tenantId,
          target: `bulk:${input.batchId}`,
          detail: {
            batchId: input.batchId,
            ...(kind === "compensation" ? { orders: input.orderNos.length } : { kind, messages: input.orderNos.length }),
            ...input.detail,
            reason: input.reason,
            ...(created === 0 ? { rerun: true, retried } : {}),
          },
        },
        prisma,
      );
    },
    { prisma: true },
  );
}

export interface BatchSummary {
  readonly batchId: string;
  readonly tenantId: string;
  readonly reason: string;
  readonly total: number;
  readonly counts: Readonly<Record<ItemStatus, number>>;
}

/** `prisma`: a transaction's, when the summary is read inside one (on the embedded database, another connection would wait for it). */
export async function batchSummary(batchId: string, prisma: PrismaTx | ReturnType<typeof getPrisma> = getPrisma()): Promise<BatchSummary | null> {
  const [batch, groups] = await Promise.all([
    prisma.bulkBatch.findUnique({ where: { id: batchId }, select: { tenantId: true, reason: true, total: true } }),
    prisma.bulkBatchItem.groupBy({ by: ["status"], where: { batchId }, _count: { _all: true } }),
  ]);
  if (!batch) return null;
  const counts = Object.fromEntries(ITEM_STATUSES.map((s) => [s, groups.find((g) => g.status === s)?._count._all ?? 0])) as Record<ItemStatus, number>;
  return { batchId, ...batch, counts };
}

function itemOutcome(orderNo: string, result: RepairDeliveryResult): { status: ItemStatus; detail: ItemDetail } {
  switch (result.result) {
    case "completed":
      return { status: "applied", detail: { steps: result.steps } };
    case "not-possible":
      return { status: result.nothingToDo ? "nothing-to-do" : "refused", detail: { problem: result.problem } };
    case "not-found":
      return { status: "refused", detail: { problem: { kind: "order-not-found", orderNo } } };
    case "in-progress":
      return { status: "failed", detail: { problem: { kind: "repair-running" } } };
    case "incomplete":
      return { status: "failed", detail: { steps: result.steps, problem: result.problem } };
  }
}

const PENDING_ITEM = `SELECT i.position, i.order_no AS "orderNo", i.tenant_id AS "tenantId", b.reason
  FROM bulk_batch_items i JOIN bulk_batches b ON b.id = i.batch_id
  WHERE i.batch_id = $1 AND b.kind = $2 AND i.status = 'pending'`;
const pendingItem = z.object({ position: z.number(), orderNo: z.string(), tenantId: z.string(), reason: z.string() });

/** One pending item of a batch, claimed by this runner. */
export interface PendingItem {
  readonly position: number;
  /** The item's key (an order number, or a message id in a resend batch). */
  readonly orderNo: string;
  readonly tenantId: string;
  /** The batch's reason. */
  readonly reason: string;
}

/**
 * Claims up to `limit` pending items of a batch of `kind` (advisory try-locks: another runner takes
 * the next ones), handles each and records its outcome. Returns how many it handled; 0 with items
 * still pending means another runner holds them right now. Both kinds of batch run through here.
 */
export async function runChunk(input: {
  batchId: string;
  actor: string;
  kind: BatchKind;
  limit?: number;
  handle: (item: PendingItem) => Promise<{ status: ItemStatus; detail: ItemDetail }>;
}): Promise<number> {
  const limit = input.limit ?? 10;
  return withClaimer(getPool(), async (claimer) => {
    // A window of candidates wider than the chunk, so a second runner finds items the first does not hold.
    const candidates = await rows(claimer.client, pendingItem, `${PENDING_ITEM} ORDER BY i.position LIMIT $3`, [input.batchId, input.kind, limit * 4]);
    const locked = await claimer.tryLock(candidates.map((c) => ({ id: c.position, key: `bulk:${input.batchId}:${c.orderNo}` })));
    // Read again after the lock: an item another runner let go of a moment ago may be done now.
    const mine = await rows(
      claimer.client,
      pendingItem,
      `${PENDING_ITEM} AND i.position = ANY($3::int[]) ORDER BY i.position LIMIT $4`,
      [input.batchId, input.kind, locked, limit],
    );
    let handled = 0;
    for (const item of mine) {
      const { status, detail } = await input.handle(item);
      // Still pending: a runner that held the item before our lock may have finished it already.
      const { count } = await getPrisma().bulkBatchItem.updateMany({
        where: { batchId: input.batchId, orderNo: item.orderNo, status: "pending" },
        data: { status, detail: detail as object, updatedAt: new Date() },
      });
      handled += count;
    }
    if (handled > 0) await recordFinished(input.batchId, input.actor);
    return handled;
  });
}

/** A bulk compensation batch's next chunk: repair delivery on each order. */
export async function runBatchChunk(input: { batchId: string; actor: string; limit?: number }): Promise<number> {
  return runChunk({
    ...input,
    kind: "compensation",
    handle: async (item) =>
      itemOutcome(
        item.orderNo,
        await repairDelivery({
          tenantId: item.tenantId,
          orderNo: item.orderNo,
          actor: input.actor,
          source: "console",
          reason: `bulk compensation ${input.batchId}: ${item.reason}`,
          keyPrefix: `bulk:${input.batchId}`,
        }),
      ),
  });
}

/**
 * The batch's "finished" audit fact, with its counts, once per run that drains it: under a lock per
 * batch, written only when nothing is pending and the batch's last fact is its start.
 */
async function recordFinished(batchId: string, actor: string): Promise<void> {
  await transaction(
    async ({ client, prisma }) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`bulk-finished:${batchId}`]);
      const summary = await batchSummary(batchId, prisma);
      if (!summary || summary.counts.pending > 0) return;
      const last = await prisma.auditEvent.findFirst({
        where: { target: `bulk:${batchId}`, action: { in: ["bulk.started", "bulk.finished"] } },
        orderBy: { id: "desc" },
        select: { action: true },
      });
      if (last?.action !== "bulk.started") return;
      await audit(
        { actor, action: "bulk.finished", tenantId: summary.tenantId, target: `bulk:${batchId}`, detail: { batchId, total: summary.total, ...summary.counts } },
        prisma,
      );
    },
    { prisma: true },
  );
}

export interface ItemRow {
  readonly position: number;
  readonly orderNo: string;
  readonly status: ItemStatus;
  /** Data for new rows; text for rows written before outcomes were data. */
  readonly detail: ItemDetail | string | null;
  readonly updatedAt: Date;
}

export async function batchItems(batchId: string): Promise<ItemRow[]> {
  const items = await getPrisma().bulkBatchItem.findMany({
    where: { batchId },
    orderBy: { position: "asc" },
    select: { position: true, orderNo: true, status: true, detail: true, updatedAt: true },
  });
  return items.map((i) => ({ ...i, status: z.enum(ITEM_STATUSES).parse(i.status), detail: i.detail as ItemDetail | string | null }));
}

export interface PastBatch {
  readonly batchId: string;
  readonly tenantId: string;
  readonly createdBy: string;
  readonly reason: string;
  readonly total: number;
  readonly createdAt: Date;
  readonly counts: Readonly<Record<ItemStatus, number>>;
}

/**
 * The newest compensation batches (the /bulk page's) of the caller's products with their results per
 * status: what was done after which incident, by whom, and what is left (pending, failed). Two
 * lookups: the batches by (tenant_id, created_at), their items' counts by the items' key (tenant_id, batch_id).
 */
export async function listBatches(tenantIds: readonly string[], limit = 20): Promise<PastBatch[]> {
  if (tenantIds.length === 0) return [];
  const prisma = getPrisma();
  const batches = await prisma.bulkBatch.findMany({
    where: { tenantId: { in: [...tenantIds] }, kind: "compensation" },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, tenantId: true, createdBy: true, reason: true, total: true, createdAt: true },
  });
  if (batches.length === 0) return [];
  const groups = await prisma.bulkBatchItem.groupBy({
    by: ["batchId", "status"],
    where: { tenantId: { in: [...new Set(batches.map((b) => b.tenantId))] }, batchId: { in: batches.map((b) => b.id) } },
    _count: { _all: true },
  });
  return batches.map(({ id, ...batch }) => ({
    batchId: id,
    ...batch,
    counts: Object.fromEntries(ITEM_STATUSES.map((s) => [s, groups.find((g) => g.batchId === id && g.status === s)?._count._all ?? 0])) as Record<ItemStatus, number>,
  }));
}

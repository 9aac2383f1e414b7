import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { can } from "@/lib/auth/permissions";
import { actorOf, type Staff } from "@/lib/auth/staff";
import type { CaseFilter, CaseQueue } from "@/lib/cases/filters";
import { listAssignees, type Assignee } from "@/lib/cases/queries/assignees";
import { loadCaseReasons } from "@/lib/cases/queries/case-reasons";
import { emptyCaseQueue, loadCaseQueue } from "@/lib/cases/queries/case-queue";
import type { CaseCannedReasons } from "@/lib/settings/reason-kinds";
import type { Viewer } from "@/lib/cases/offers";
import { STUCK_PAIRS, stuckByState, stuckCounts, type CappedCount } from "@/lib/orders/queries/stuck-counts";
import { STUCK_STATES, type StuckState } from "@/lib/orders/stuck";

// The work queues ops and support clear every day:
// - stuck orders (lib/orders/stuck.ts): in created, paid, delivering or refunding longer than the
//   product's max_dwell_seconds for that state (a dropped payment callback, a delivery that never
//   finished, a refund the channel never answered), one list per state, oldest first;
// - the case queue: open and in-progress cases (exceptions: money or goods the ledger could not
//   apply), most urgent first, filtered to all, mine, unassigned or overdue (lib/cases/queries/case-queue.ts).
// Stuck lists are ranges of orders (tenant_id, state, state_at) below each pair's own cutoff; the
// case queue is ranges of the partial indexes on active cases. Each list is capped, with the full
// count beside it.
//
// The snapshot is plain JSON (times as ISO strings). The queues page reads it, with what its case
// forms offer (readQueuesPage), from /api/console/queues, and polls that.

/** A stuck list per state an order can be stuck in (lib/orders/stuck.ts). */
export const QUEUE_STATES = STUCK_STATES;
export type QueueState = StuckState;

/** Rows per list unless the caller asks otherwise. */
export const QUEUE_LIMIT = 50;
/**
 * Counts stop here. Each viewer polls every few seconds, and during an incident a queue can hold
 * tens of thousands of orders whose index pages are changing under the count (so it reads the
 * heap too; measured: seconds per poll at 1,000,000 orders). "1,000+" says what matters at a
 * bounded cost; the orders page's stuck filter counts further when someone needs the number.
 */
export const QUEUE_COUNT_LIMIT = 1_000;

export interface StuckOrder {
  readonly id: number;
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: QueueState;
  readonly stateAt: string;
  readonly secondsInState: number;
  readonly maxDwellSeconds: number;
}

export interface QueueList<T> {
  /** Exact, unless `more`: then there are more than this many. */
  readonly total: number;
  readonly more: boolean;
  /** Oldest first, at most the limit. */
  readonly items: readonly T[];
}

export interface QueuesSnapshot {
  /** The database's clock when the snapshot was taken: ages are as of this instant. */
  readonly asOf: string;
  readonly stuck: Readonly<Record<QueueState, QueueList<StuckOrder>>>;
  readonly cases: CaseQueue;
}

type MutableList<T> = { total: number; more: boolean; items: T[] };

const stuckRow: z.ZodType<StuckOrder & { readonly asOf: string }, unknown> = z.object({
  id: z.number(),
  tenantId: z.string(),
  orderNo: z.string(),
  playerId: z.string(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(QUEUE_STATES),
  stateAt: z.string(),
  secondsInState: z.number(),
  maxDwellSeconds: z.number(),
  asOf: z.string(),
});

function emptyStuck(): Record<QueueState, MutableList<StuckOrder>> {
  const empty = (): MutableList<StuckOrder> => ({ total: 0, more: false, items: [] });
  return { created: empty(), paid: empty(), delivering: empty(), refunding: empty() };
}

export interface QueueOptions {
  readonly limit?: number;
  readonly countLimit?: number;
  /** Who looks: "mine" and what each case offers them. Null: nobody in particular (no controls). */
  readonly viewer?: Viewer | null;
  readonly caseFilter?: CaseFilter;
}

/** Every queue for the given tenants (the caller's scope: nothing outside it is read). */
export async function loadQueues(scope: readonly string[], options: QueueOptions = {}): Promise<QueuesSnapshot> {
  const limit = options.limit ?? QUEUE_LIMIT;
  const countLimit = options.countLimit ?? QUEUE_COUNT_LIMIT;
  const tenants = [...new Set(scope)];
  const caseOptions = { limit, countLimit, viewer: options.viewer ?? null, filter: options.caseFilter ?? "all" } as const;
  if (tenants.length === 0) {
    const { asOf } = await one(getPool(), z.object({ asOf: z.string() }), `SELECT ${ISO("now()")} AS "asOf"`);
    return { asOf, stuck: emptyStuck(), cases: emptyCaseQueue(caseOptions.filter, caseOptions.viewer) };
  }
  const [stuck, cases] = await Promise.all([stuckQueues(tenants, limit, countLimit), loadCaseQueue(tenants, caseOptions)]);
  return { asOf: stuck.asOf, stuck: stuck.lists, cases };
}

/** The queues page's read model: both queues for the case filter, who looks, and what the case forms offer. */
export interface QueuesPageModel extends QueuesSnapshot {
  /** The viewer ("staff:<email>"): "mine", and "you" as an owner. */
  readonly me: string;
  /** Staff who work cases, for the assign form (none for a viewer who works no cases). */
  readonly assignees: readonly Assignee[];
  /** Canned reasons for the case dialogs, per product. */
  readonly reasons: Readonly<Record<string, CaseCannedReasons>>;
}

export async function readQueuesPage(staff: Staff, caseFilter: CaseFilter): Promise<QueuesPageModel> {
  const viewer = { actor: actorOf(staff), role: staff.role };
  const works = can(staff.role, "cases:work");
  const [snapshot, assignees, reasons] = await Promise.all([
    loadQueues(staff.tenantIds, { viewer, caseFilter }),
    works ? listAssignees(staff.tenantIds) : [],
    works ? loadCaseReasons(staff.tenantIds) : {},
  ]);
  return { ...snapshot, me: viewer.actor, assignees, reasons };
}

/** ISO 8601 in UTC with milliseconds, as JSON would have it. */
const ISO = (expr: string): string => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function stuckQueues(
  tenants: readonly string[],
  limit: number,
  countLimit: number,
): Promise<{ asOf: string; lists: Record<QueueState, MutableList<StuckOrder>> }> {
  const [list, products] = await Promise.all([
    // Per pair, its oldest `limit` in index order; then per state, the oldest `limit` across products.
    rows(
      getPool(),
      stuckRow,
      `WITH p AS MATERIALIZED (SELECT * FROM (${STUCK_PAIRS}) pairs WHERE dwell IS NOT NULL),
       o AS (
         SELECT o.*, p.dwell, row_number() OVER (PARTITION BY o.state ORDER BY o.state_at, o.id) AS rank
         FROM p CROSS JOIN LATERAL (
           SELECT o.id, o.tenant_id, o.order_no, o.player_id, o.amount, o.currency, o.state, o.state_at
           FROM orders o
           WHERE o.tenant_id = p.tenant_id AND o.state = p.state AND o.state_at < now() - p.dwell * interval '1 second'
           ORDER BY o.state_at, o.id LIMIT $3
         ) o
       )
       SELECT id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency, state,
              ${ISO("state_at")} AS "stateAt", floor(extract(epoch FROM now() - state_at))::int AS "secondsInState",
              dwell AS "maxDwellSeconds", ${ISO("now()")} AS "asOf"
       FROM o WHERE rank <= $3 ORDER BY state, state_at, id`,
      [tenants, QUEUE_STATES, limit],
    ),
    // Counted as the overview and the dashboard count them.
    stuckCounts(tenants, countLimit),
  ]);
  const lists = emptyStuck();
  for (const { asOf: _asOf, ...row } of list) lists[row.state].items.push(row);
  for (const [state, { count, more }] of Object.entries(stuckByState(products, countLimit)) as [QueueState, CappedCount][]) {
    lists[state].total = count;
    lists[state].more = more;
  }
  const asOf = list[0]?.asOf ?? (await one(getPool(), z.object({ asOf: z.string() }), `SELECT ${ISO("now()")} AS "asOf"`)).asOf;
  return { asOf, lists };
}

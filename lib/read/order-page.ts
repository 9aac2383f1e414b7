import "server-only";
import { can, CONSOLE_EVENTS, type Role } from "@/lib/auth/permissions";
import { actorOf, type Staff } from "@/lib/auth/staff";
import { listAssignees, type Assignee } from "@/lib/cases/queries/assignees";
import { loadOrderCases } from "@/lib/cases/queries/order-cases";
import { caseCannedReasons, type CaseCannedReasons } from "@/lib/settings/reason-kinds";
import type { CaseView } from "@/lib/cases/view";
import { snapshot } from "@/lib/db/transaction";
import { GRANTABLE_STATES } from "@/lib/orders/grant-decision";
import { availableEvents, type OrderEvent, type OrderState } from "@/lib/orders/machine";
import { paymentOf, type PaymentFacts } from "@/lib/orders/payment";
import { getOrderDetail, type OrderLineDetail } from "@/lib/orders/queries/order-detail";
import { getOrderPageFacts, type OrderTakeBack } from "@/lib/read/order-page-facts";
import { eventsOffered, pendingApproval, refundNeedsApprovalOf, refusedRefunds, type PendingRefundApproval, type RefusedRefund } from "@/lib/orders/refund-history";
import { dwellOf, type Dwell } from "@/lib/orders/stuck";
import { takeBackPreview, type TakeBackPreviewData } from "@/lib/orders/take-back-preview";
import { mergeTimeline, type TimelineEntry } from "@/lib/orders/timeline";
import type { OrderSnapshot } from "@/lib/orders/types";
import type { RefundWatch } from "@/lib/players/refund-watch";
import type { CannedReasons } from "@/lib/settings/canned-reasons";

/**
 * Everything the order page shows, for one viewer: read in one snapshot, decided here (what the
 * viewer may do is the server's word, not the browser's), and sent as JSON
 * (app/api/console/orders/[tenant]/[orderNo]/page/route.ts) to the page, which only lays it out.
 */
export interface OrderPageModel {
  readonly viewer: {
    readonly role: Role;
    /** The viewer as cases name their assignee. */
    readonly actor: string;
    readonly canApprove: boolean;
    /** Compensating grants and repair are ops' work (the button stays mounted while repair is not possible). */
    readonly canGrant: boolean;
  };
  readonly order: OrderSnapshot;
  readonly tenantName: string;
  readonly createdAt: Date;
  readonly payment: PaymentFacts | null;
  readonly dwell: Dwell;
  readonly refundWatch: RefundWatch | null;
  readonly waiting: PendingRefundApproval | null;
  readonly refused: readonly RefusedRefund[];
  /** Legal now, whitelisted for the viewer's role, and not refused before it is sent. */
  readonly events: readonly OrderEvent[];
  readonly cannedReasons: CannedReasons;
  /** What a refund would take back: only when the viewer is offered one. */
  readonly takeBack: TakeBackPreviewData | null;
  /** Set when a refund asked for here goes to a manager first. */
  readonly refundApproval: { readonly amount: number } | null;
  /** Grants are possible now and the viewer may make them. */
  readonly canRepair: boolean;
  readonly lines: readonly OrderLineDetail[];
  readonly takeBacks: readonly OrderTakeBack[];
  /** Where reject-refund (refunding) or a store's reverse-refund (refunded) leads: the state the latest refund request left. */
  readonly refundFrom: OrderState | null;
  /** The one history of the order, newest first. */
  readonly timeline: readonly TimelineEntry[];
  readonly cases: {
    /** The active ones first. */
    readonly list: readonly CaseView[];
    /** Who a case may be handed to; empty for a viewer who does not work cases. */
    readonly assignees: readonly Assignee[];
    readonly reasons: Readonly<Record<string, CaseCannedReasons>>;
  };
}

/**
 * The order page of `orderNo` in `tenantId` (a tenant the caller's scope rule has already admitted),
 * or null when there is no such order. Three statements in one snapshot: the order with its rows,
 * its product's facts, its cases (and, for those who work cases, who may take them).
 */
export async function readOrderPage(staff: Staff, tenantId: string, orderNo: string): Promise<OrderPageModel | null> {
  const actor = actorOf(staff);
  const worksCases = can(staff.role, "cases:work");
  const read = await snapshot(async ({ client, prisma }) => {
    const detail = await getOrderDetail(tenantId, orderNo, client);
    if (!detail) return null;
    // One after another: a connection runs one statement at a time anyway.
    const facts = await getOrderPageFacts(tenantId, orderNo, client);
    const cases = await loadOrderCases(tenantId, detail.order.id, { actor, role: staff.role }, client);
    const assignees = worksCases ? await listAssignees([tenantId], prisma) : [];
    return facts ? { detail, facts, cases, assignees } : null;
  });
  if (!read) return null;
  const { detail, facts, cases, assignees } = read;
  const { order } = detail;

  const waiting = pendingApproval(detail.approvals);
  const whitelist = CONSOLE_EVENTS[staff.role];
  const events = eventsOffered(
    availableEvents(order.state).flatMap((e) => (e.allowed && whitelist.includes(e.event) ? [e.event] : [])),
    waiting,
  );
  const offersRefund = events.includes("request-refund") || events.includes("confirm-refund");
  const canGrant = can(staff.role, "orders:grant");
  return {
    viewer: { role: staff.role, actor, canApprove: can(staff.role, "refunds:approve"), canGrant },
    order,
    tenantName: facts.tenantName,
    createdAt: facts.createdAt,
    payment: paymentOf(detail.transitions, facts.paymentOrigin),
    dwell: dwellOf(order.state, facts.secondsInState, facts.thresholds),
    refundWatch: facts.refundWatch,
    waiting,
    refused: refusedRefunds(detail.approvals, detail.transitions),
    events,
    cannedReasons: facts.cannedReasons,
    takeBack: offersRefund ? { lines: takeBackPreview(detail.lines, facts.takeBackRules), revokeEndpointSet: facts.revokeEndpointSet } : null,
    refundApproval:
      events.includes("request-refund") && facts.refundApprovalAmount !== null && refundNeedsApprovalOf(order.amount, facts.refundApprovalAmount)
        ? { amount: facts.refundApprovalAmount }
        : null,
    canRepair: canGrant && GRANTABLE_STATES.includes(order.state),
    lines: detail.lines,
    takeBacks: facts.takeBacks,
    // Transitions are newest first.
    refundFrom: order.state === "refunding" || order.state === "refunded" ? (detail.transitions.find((tr) => tr.event === "request-refund")?.from ?? null) : null,
    timeline: mergeTimeline(detail),
    cases: { list: cases, assignees, reasons: worksCases ? { [tenantId]: caseCannedReasons(facts.cannedReasons) } : {} },
  };
}

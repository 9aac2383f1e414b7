// What the audit trail holds, by log and by kind. Pure.
//
// Four append-only logs hold the facts: order_transitions, grants (deliveries, compensations and
// refund reversals), order_notes, and audit_events ("actions": everything else a person or the
// system does). A kind is what a reader filters by; the audit_events kinds come from the action's
// name, classified here once — the explorer's filter, its table, the security log, the per-actor
// summary and the CSV all read this table.
import type { AuditAction as StaffAuditAction, CaseAuditAction } from "@/lib/audit/record";

/** Every action name the code writes to audit_events: staff and machine actions, and the facts of cases, refunds, take-backs and stores. */
export type AuditAction = StaffAuditAction | CaseAuditAction;

export const AUDIT_LOGS = ["transition", "grant", "note", "action"] as const;
export type AuditLog = (typeof AUDIT_LOGS)[number];

export const ACTION_KINDS = ["approval", "case", "refund", "take-back", "refund-review", "store", "webhook", "bulk", "settings", "staff", "apikey", "sign-in", "access", "audit"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const AUDIT_KINDS = ["transition", "grant", "note", ...ACTION_KINDS] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * Every action's kind. A Record over AuditAction: an action added to the union without a kind does
 * not compile, so it can never fall out of the kind filter unnoticed. API-key sign-in failures are
 * sign-ins (an attempt to get in), not changes to the keys.
 */
export const ACTION_KIND: Readonly<Record<AuditAction, ActionKind>> = {
  "sign-in.succeeded": "sign-in",
  "sign-in.failed": "sign-in",
  "sign-in.locked": "sign-in",
  "sign-out": "sign-in",
  "apikey.auth-failed": "sign-in",
  "access.denied": "access",
  "user.created": "staff",
  "user.updated": "staff",
  "user.disabled": "staff",
  "user.enabled": "staff",
  "user.password-reset": "staff",
  "apikey.created": "apikey",
  "apikey.revoked": "apikey",
  "settings.updated": "settings",
  "audit.exported": "audit",
  "audit.chain-broken": "audit",
  "approval.requested": "approval",
  "approval.approved": "approval",
  "approval.rejected": "approval",
  "bulk.previewed": "bulk",
  "bulk.started": "bulk",
  "bulk.finished": "bulk",
  // A saved view is console configuration (a shared one sets what a team looks at).
  "view.saved": "settings",
  "view.renamed": "settings",
  "view.deleted": "settings",
  // Who took which slice of data out of the system, like the audit log's own export.
  "orders.exported": "audit",
  // Cases (order_exceptions worked by people): who took, assigned, resolved, dismissed or reopened one.
  "case.taken": "case",
  "case.assigned": "case",
  "case.resolving": "case",
  "case.resolved": "case",
  "case.dismissed": "case",
  "case.reopened": "case",
  "case.honoured": "case",
  // Refunds we asked a payment channel for, and what became of them.
  "refund.requested": "refund",
  "refund.sent": "refund",
  "refund.resent": "refund",
  "refund.confirmed": "refund",
  "refund.failed": "refund",
  // The worker's calls to the game for goods a refund took back (or a reversed refund gave back).
  "take-back.done": "take-back",
  "take-back.failed": "take-back",
  "take-back.retried": "take-back",
  // Answers to a store's refund review.
  "refund-review.answered": "refund-review",
  "refund-review.sent": "refund-review",
  "refund-review.failed": "refund-review",
  "refund-review.expired": "refund-review",
  // What the App Store and Google Play told us, and the Voided Purchases poll.
  "store.notification": "store",
  "store.notification-refused": "store",
  "store.voided-purchases-polled": "store",
  // What people did about the tenant's webhook deliveries (the deliveries page).
  "webhook.resent": "webhook",
  "webhook.test-sent": "webhook",
};

export const KNOWN_ACTIONS = Object.keys(ACTION_KIND) as AuditAction[];

export function isKnownAction(action: string): action is AuditAction {
  return Object.hasOwn(ACTION_KIND, action);
}

/** An action's kind; null for a name the code does not know (rows written by an older version). */
export function kindOfAction(action: string): ActionKind | null {
  return isKnownAction(action) ? ACTION_KIND[action] : null;
}

export function isActionKind(kind: string): kind is ActionKind {
  return (ACTION_KINDS as readonly string[]).includes(kind);
}

export function actionsOfKind(kind: ActionKind): AuditAction[] {
  return KNOWN_ACTIONS.filter((a) => ACTION_KIND[a] === kind);
}

/** The admins' security log: who got in (or did not), who was refused, staff and key changes. */
export const SECURITY_KINDS = ["sign-in", "access", "staff", "apikey"] as const satisfies readonly ActionKind[];
export type SecurityKind = (typeof SECURITY_KINDS)[number];
export const SECURITY_ACTIONS: readonly AuditAction[] = KNOWN_ACTIONS.filter((a) => (SECURITY_KINDS as readonly ActionKind[]).includes(ACTION_KIND[a]));

// One order's history as one list, newest first: transitions, grants, refund approvals (asked and
// decided), exceptions (filed and resolved), webhook messages, internal notes and the other audit
// facts about the order. Pure: the order page's query (queries/order-detail.ts) reads the rows, this
// merges them, the component words them.
import type { OrderEvent, OrderState, Source } from "./machine";
import { REVIEW_ANSWER_TOPIC } from "@/lib/outbox/answer-topic";
import type { Refusal } from "@/lib/problems";
import { systemReason, type SystemReason } from "./system-reasons";
import type { GrantRecord, TransitionRecord } from "./types";
// What a message is now (queued, retrying, delivered, not sent, dead): one rule, shared with the deliveries page.
import { outboxDelivery, type OutboxDelivery } from "@/lib/outbox/delivery-status";

export interface ApprovalRecord {
  readonly id: number;
  readonly requestedBy: string;
  readonly reason: string;
  readonly amount: number;
  readonly status: string;
  readonly decidedBy: string | null;
  readonly decisionReason: string | null;
  readonly decidedAt: Date | null;
  readonly createdAt: Date;
}

export interface ExceptionRecord {
  readonly id: number;
  readonly kind: string;
  readonly event: string | null;
  readonly bizKey: string;
  readonly amount: number | null;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly actor: string;
  /** The case's status (lib/cases/model.ts): a closed case was either resolved or dismissed, two different facts. */
  readonly status: string;
  readonly createdAt: Date;
  readonly resolvedAt: Date | null;
  readonly resolvedBy: string | null;
}

export interface OutboxRecord {
  readonly id: number;
  readonly topic: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

export interface NoteRecord {
  readonly id: number;
  readonly author: string;
  readonly body: string;
  readonly correctsId: number | null;
  readonly at: Date;
}

/** An audit_events row about this order (approvals, and whatever else names the order). */
export interface OrderAuditFact {
  readonly id: number;
  readonly action: string;
  readonly actor: string;
  readonly target: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: Date;
}

export interface TimelineSources {
  readonly transitions: readonly TransitionRecord[];
  readonly grants: readonly GrantRecord[];
  readonly approvals: readonly ApprovalRecord[];
  readonly allExceptions: readonly ExceptionRecord[];
  readonly outbox: readonly OutboxRecord[];
  readonly notes: readonly NoteRecord[];
  readonly auditFacts: readonly OrderAuditFact[];
}


/** How a case (an order_exceptions row) ended, derived once from its status. */
export type ExceptionClosing = "resolved" | "dismissed";

/** A case's closing step: none while it is open or in progress (a reopened case has no resolvedAt either). */
export function exceptionClosing(x: Pick<ExceptionRecord, "status" | "resolvedAt">): ExceptionClosing | null {
  if (x.resolvedAt === null) return null;
  if (x.status === "dismissed") return "dismissed";
  return x.status === "resolved" ? "resolved" : null;
}

/**
 * Who an outbox message goes to: most are the tenant's webhook, but the relay also carries a
 * refund request to the payment channel and an answer to a store's refund review — neither is a
 * webhook, and a reader must not be told it is.
 */
export type OutboxRecipient = "webhook" | "channel" | "store";

export function outboxRecipient(topic: string): OutboxRecipient {
  if (topic === "refund.requested") return "channel";
  return topic === REVIEW_ANSWER_TOPIC ? "store" : "webhook";
}

export const TIMELINE_KINDS = ["transition", "grant", "approval", "exception", "outbox", "note", "action"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

interface EntryBase {
  /** Unique in the list: the log and the row, e.g. `t:12`, `a:3:decided`. */
  readonly key: string;
  readonly at: Date;
  /** Who did it; null for the webhook relay (a message has no author). */
  readonly actor: string | null;
  readonly source: string | null;
  readonly reason: string | null;
  /** The reason, when the system wrote it (the timeout job's, the coordinator's): worded in the reader's language. */
  readonly systemReason?: SystemReason | null;
}

export type TimelineEntry =
  | (EntryBase & { readonly kind: "transition"; readonly event: OrderEvent; readonly from: OrderState; readonly to: OrderState; readonly bizKey: string; readonly source: Source })
  | (EntryBase & { readonly kind: "grant"; readonly sku: string; readonly quantity: number; readonly grantId: string })
  | (EntryBase & { readonly kind: "approval"; readonly step: "requested"; readonly approvalId: number; readonly amount: number; readonly status: string })
  | (EntryBase & { readonly kind: "approval"; readonly step: "approved" | "rejected"; readonly approvalId: number; readonly requestedBy: string; readonly refusal: Refusal | null })
  | (EntryBase & {
      readonly kind: "exception";
      readonly step: "filed";
      readonly exceptionId: number;
      readonly exceptionKind: string;
      readonly event: string | null;
      readonly bizKey: string;
      readonly amount: number | null;
      readonly detail: Readonly<Record<string, unknown>>;
    })
  | (EntryBase & {
      readonly kind: "exception";
      /** How the case was closed: resolved (something was done) or dismissed (nothing was, and why). */
      readonly step: ExceptionClosing;
      readonly exceptionId: number;
      readonly exceptionKind: string;
      /** The way out chosen (lib/cases/model.ts RESOLUTIONS), from the audit fact that closed it; null when dismissed or unknown. */
      readonly resolution: string | null;
    })
  | (EntryBase & {
      readonly kind: "outbox";
      readonly messageId: number;
      readonly topic: string;
      readonly status: string;
      /** Where the message stands for a reader: a `delivered` row the relay never sent is `no-webhook`. */
      readonly delivery: OutboxDelivery;
      readonly recipient: OutboxRecipient;
      readonly attempts: number;
      readonly lastError: string | null;
      readonly queuedAt: Date;
    })
  | (EntryBase & {
      readonly kind: "note";
      readonly noteId: number;
      /** The note's number on this order (1 for its first note): ids run across every order, so a reader is shown this. */
      readonly number: number;
      readonly body: string;
      readonly correctsId: number | null;
      /** The corrected note's number on this order; null when it corrects nothing. */
      readonly correctsNumber: number | null;
      readonly correctedBy: readonly { readonly id: number; readonly number: number }[];
    })
  | (EntryBase & { readonly kind: "action"; readonly factId: number; readonly action: string; readonly target: string | null; readonly detail: Readonly<Record<string, unknown>> });

/**
 * Order at one instant, oldest to newest: what one transaction writes in this causal order shares
 * its timestamp (an approval's decision, then the transition it requests; a transition, then the
 * grants it reverses and the message it queues), so the newest-first list shows the consequence
 * above its cause.
 */
const RANK: Readonly<Record<string, number>> = {
  "approval:requested": 0,
  "approval:approved": 1,
  "approval:rejected": 1,
  transition: 2,
  grant: 3,
  "exception:filed": 4,
  "exception:resolved": 5,
  "exception:dismissed": 5,
  note: 6,
  action: 7,
  outbox: 8,
};

function rankOf(e: TimelineEntry): number {
  return RANK["step" in e ? `${e.kind}:${e.step}` : e.kind] ?? 0;
}

/** The row id an entry came from, to order the entries of one kind at one instant. */
function rowId(e: TimelineEntry): number {
  return Number(e.key.split(":")[1]);
}

const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";

export function mergeTimeline(s: TimelineSources): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const t of s.transitions) {
    entries.push({ key: `t:${t.id}`, kind: "transition", at: t.at, actor: t.actor, source: t.source, reason: t.reason, systemReason: systemReason(t.actor, t.reason), event: t.event, from: t.from, to: t.to, bizKey: t.bizKey });
  }
  for (const g of s.grants) {
    entries.push({ key: `g:${g.id}`, kind: "grant", at: g.at, actor: g.actor, source: g.source, reason: g.reason, systemReason: systemReason(g.actor, g.reason), sku: g.sku, quantity: g.quantity, grantId: g.grantId });
  }
  // An approval's request and decision are its row; the audit facts that recorded them add what the
  // row does not keep (a refusal as data), and are not shown a second time.
  const approvalFacts = new Map<number, OrderAuditFact>();
  const folded = new Set<number>();
  for (const f of s.auditFacts) {
    if (!f.action.startsWith("approval.") || typeof f.detail.approvalId !== "number") continue;
    if (!s.approvals.some((a) => a.id === f.detail.approvalId)) continue;
    folded.add(f.id);
    if (f.action !== "approval.requested") approvalFacts.set(f.detail.approvalId, f);
  }
  for (const a of s.approvals) {
    entries.push({ key: `a:${a.id}:requested`, kind: "approval", step: "requested", at: a.createdAt, actor: a.requestedBy, source: "console", reason: a.reason, approvalId: a.id, amount: a.amount, status: a.status });
    if (a.decidedAt && (a.status === "approved" || a.status === "rejected")) {
      const fact = approvalFacts.get(a.id);
      const refusal = fact && isRefusal(fact.detail.refusal) ? fact.detail.refusal : null;
      const reason = fact && typeof fact.detail.reason === "string" ? fact.detail.reason : a.decisionReason;
      entries.push({ key: `a:${a.id}:decided`, kind: "approval", step: a.status, at: a.decidedAt, actor: a.decidedBy, source: "console", reason, approvalId: a.id, requestedBy: a.requestedBy, refusal });
    }
  }
  // A closed case's row says when and by whom; the audit fact written with it (case.resolved or
  // case.dismissed, the newest one for that case: a reopened case may have closed before) adds why
  // and how, and is not shown a second time.
  const closingFacts = new Map<number, OrderAuditFact>();
  for (const f of s.auditFacts) {
    if ((f.action !== "case.resolved" && f.action !== "case.dismissed") || typeof f.detail.caseId !== "number") continue;
    const x = s.allExceptions.find((e) => e.id === f.detail.caseId);
    if (!x || f.action !== `case.${exceptionClosing(x)}`) continue;
    const seen = closingFacts.get(x.id);
    if (!seen || seen.id < f.id) closingFacts.set(x.id, f);
  }
  for (const f of closingFacts.values()) folded.add(f.id);
  for (const x of s.allExceptions) {
    const common = { exceptionId: x.id, exceptionKind: x.kind, source: null };
    entries.push({ ...common, key: `x:${x.id}:filed`, kind: "exception", step: "filed", at: x.createdAt, actor: x.actor, reason: null, event: x.event, bizKey: x.bizKey, amount: x.amount, detail: x.detail });
    const closing = exceptionClosing(x);
    if (closing && x.resolvedAt) {
      const fact = closingFacts.get(x.id);
      const reason = fact && typeof fact.detail.reason === "string" ? fact.detail.reason : null;
      const resolution = closing === "resolved" && fact && typeof fact.detail.resolution === "string" ? fact.detail.resolution : null;
      entries.push({ ...common, key: `x:${x.id}:${closing}`, kind: "exception", step: closing, at: x.resolvedAt, actor: x.resolvedBy, reason, resolution });
    }
  }
  for (const m of s.outbox) {
    // One entry per message, where it stands: delivered (at that time), or still queued, retrying or given up.
    entries.push({
      key: `o:${m.id}`,
      kind: "outbox",
      at: m.deliveredAt ?? m.createdAt,
      actor: null,
      source: null,
      reason: null,
      messageId: m.id,
      topic: m.topic,
      status: m.status,
      delivery: outboxDelivery(m),
      recipient: outboxRecipient(m.topic),
      attempts: m.attempts,
      lastError: m.lastError,
      queuedAt: m.createdAt,
    });
  }
  // Numbered per order, oldest first: "note #1" is this order's first note whatever its row id.
  const numberOf = new Map([...s.notes].sort((a, b) => a.id - b.id).map((n, i) => [n.id, i + 1]));
  for (const n of s.notes) {
    const correctedBy = s.notes
      .filter((c) => c.correctsId === n.id)
      .map((c) => ({ id: c.id, number: numberOf.get(c.id)! }))
      .sort((a, b) => a.id - b.id);
    const correctsNumber = n.correctsId === null ? null : (numberOf.get(n.correctsId) ?? null);
    entries.push({ key: `n:${n.id}`, kind: "note", at: n.at, actor: n.author, source: "console", reason: null, noteId: n.id, number: numberOf.get(n.id)!, body: n.body, correctsId: n.correctsId, correctsNumber, correctedBy });
  }
  for (const f of s.auditFacts) {
    if (folded.has(f.id)) continue;
    const reason = typeof f.detail.reason === "string" ? f.detail.reason : null;
    entries.push({ key: `e:${f.id}`, kind: "action", at: f.at, actor: f.actor, source: null, reason, factId: f.id, action: f.action, target: f.target, detail: f.detail });
  }
  return entries.sort((a, b) => b.at.getTime() - a.at.getTime() || rankOf(b) - rankOf(a) || rowId(b) - rowId(a) || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
}

/** How many entries of each kind: the filter's counts. */
export function countByKind(entries: readonly TimelineEntry[]): Readonly<Record<TimelineKind, number>> {
  const counts = Object.fromEntries(TIMELINE_KINDS.map((k) => [k, 0])) as Record<TimelineKind, number>;
  for (const e of entries) counts[e.kind] += 1;
  return counts;
}

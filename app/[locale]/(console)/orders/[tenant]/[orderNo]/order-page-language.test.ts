// The order page in Chinese: every form, outcome, refusal and panel a console user can meet is
// rendered (React's server renderer, no browser) and must contain no English outside data.
//
// What counts as data here, and so may stay in Latin letters:
// - the facts of the fixtures, listed in DATA: order no, SKUs, line kinds, actors, tenant, channel
//   ids and grant ids, currency codes (money itself is formatted for zh: ¥), the error reference;
// - the order machine's contract names (states and events) — only inside a monospace element, which
//   is how the page shows them beside their label (teams grep for `request-refund`, not its label);
// - timestamps (<time>): the server paint is UTC ISO, the browser then writes them in the viewer's zone.
// Everything else (text and aria-label/title/placeholder attributes) must not contain two Latin
// letters in a row.
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { EventActions, EventDialog, EventOutcome } from "@/components/orders/event-actions";
import { FailureNotice } from "@/components/orders/action-dialog";
import { GrantDialog, GrantLineButton, GrantOutcome } from "@/components/orders/grant-line-form";
import { LineProgressList } from "@/components/orders/line-progress";
import { NextEvents } from "@/components/orders/next-events";
import { NoteComposer } from "@/components/orders/note-composer";
import { DwellFlag, OrderFacts, PendingApprovalBanner, RefusedRefunds } from "@/components/orders/order-summary";
import { RepairDeliveryButton, RepairDialog, RepairOutcome } from "@/components/orders/repair-delivery-button";
import { StateDiagram } from "@/components/orders/state-diagram";
import { Timeline } from "@/components/orders/timeline";
import { AppError, type PublicError } from "@/lib/errors";
import { toPublicError } from "@/lib/i18n/public-error";
import type { Locale } from "@/lib/i18n/locales";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "@/lib/orders/machine";
import type { OrderLineDetail } from "@/lib/orders/queries/order-detail";
import type { OrderTakeBack } from "@/lib/read/order-page-facts";
import { paymentOf } from "@/lib/orders/payment";
import { pendingApproval, refusedRefunds } from "@/lib/orders/refund-history";
import { mergeTimeline } from "@/lib/orders/timeline";
import type { TransitionRecord } from "@/lib/orders/types";
import type { FieldProblem, Refusal, RepairProblem } from "@/lib/problems";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

// The dialogs refresh the page when they close; nothing here closes one.
vi.mock("next/navigation", async (original) => ({ ...(await original<object>()), useRouter: () => ({ refresh: () => undefined }) }));
// Only their types and their presence as imports matter here: no request is sent.
vi.mock("./actions/trigger-event", () => ({ triggerEvent: vi.fn() }));
vi.mock("./actions/grant-line", () => ({ grantLine: vi.fn() }));
vi.mock("./actions/repair-delivery", () => ({ repairDelivery: vi.fn() }));
vi.mock("./actions/add-note", () => ({ addNote: vi.fn() }));

const ORDER_NO = "FZ20260314000042";
// Line kinds are not data: they have names in both languages (issue 29, item 15).
const DATA = [ORDER_NO, `${ORDER_NO}-H7`, "fangzhou", "gems-60", "skin-dragon", "stamina-5", "companion", "CNY", "USD"];
DATA.push("p-1001", "wechat", "staff:ops@example.com", "game:server", "channel:wechat", "wx-4200001", "rf-77001", "repair:gems-60:0", "console:5f0c");
// The timeline's facts: actors, grant ids, webhook topics and errors, audit action names and targets.
DATA.push("staff:agent@example.com", "staff:manager@example.com", "refund:rf-77001", "second-payment", "order.transitioned", "order.granted", "HTTP 503", "settings.updated", "tenant:fangzhou");

const REFUSALS: Readonly<Record<Refusal["kind"], Refusal | null>> = {
  "terminal-state": { kind: "terminal-state", state: "closed", event: "pay" },
  "illegal-event": { kind: "illegal-event", state: "delivered", event: "confirm-delivery", from: ["delivering"] },
  "stale-state": { kind: "stale-state", expected: "created", actual: "paid" },
  "stale-version": { kind: "stale-version", expected: 1, actual: 3 },
  "amount-missing": { kind: "amount-missing" },
  "amount-mismatch": { kind: "amount-mismatch", paid: 12_800, expected: 12_900, currency: "CNY" },
  "lines-pending": { kind: "lines-pending", lines: [{ sku: "gems-60", granted: 2, expected: 6 }] },
  // Only a kind no rule knows is refused: its name is the stored one (data).
  "no-refund-rule": { kind: "no-refund-rule", lines: [{ sku: "stamina-5", kind: "companion" }] },
  "over-delivery": { kind: "over-delivery", sku: "gems-60", quantity: 6, granted: 4, requested: 3 },
  "grant-not-allowed": { kind: "grant-not-allowed", state: "refunding" },
  "unknown-sku": { kind: "unknown-sku", sku: "skin-dragon" },
  "invalid-quantity": { kind: "invalid-quantity" },
  // Not a console refusal: the console's forms make their own grant ids (`console:…`, `repair:…`);
  // only an integration API client can send one with the reserved `refund:` prefix.
  "reserved-grant-id": null,
};
const refusals = Object.values(REFUSALS).filter((r): r is Refusal => r !== null);

const REPAIR_PROBLEMS: Readonly<Record<RepairProblem["kind"], readonly RepairProblem[]>> = {
  "already-delivered": [{ kind: "already-delivered" }],
  "not-paid": [{ kind: "not-paid" }],
  "grants-closed": [{ kind: "grants-closed", state: "closed" }],
  "repair-running": [{ kind: "repair-running" }],
  "repair-step-refused": [
    { kind: "repair-step-refused", step: "begin-delivery", refusal: { kind: "stale-state", expected: "paid", actual: "refunding" } },
    { kind: "repair-step-refused", step: "grant", sku: "gems-60", refusal: { kind: "over-delivery", sku: "gems-60", quantity: 6, granted: 4, requested: 3 } },
    { kind: "repair-step-refused", step: "confirm-delivery", refusal: { kind: "lines-pending", lines: [{ sku: "gems-60", granted: 4, expected: 6 }] } },
  ],
  "order-not-found": [{ kind: "order-not-found", orderNo: ORDER_NO }],
};
const repairProblems = Object.values(REPAIR_PROBLEMS).flat();

const FIELD_PROBLEMS: Readonly<Record<FieldProblem["kind"], FieldProblem>> = {
  required: { kind: "required" },
  "too-short": { kind: "too-short", min: 5 },
  "too-long": { kind: "too-long", max: 500 },
  "too-small": { kind: "too-small", min: 1 },
  "too-large": { kind: "too-large", max: 6 },
  "not-a-number": { kind: "not-a-number" },
  "not-whole": { kind: "not-whole" },
  "invalid-email": { kind: "invalid-email" },
  "invalid-choice": { kind: "invalid-choice", options: ["CNY", "USD"] },
  "invalid-format": { kind: "invalid-format" },
  "endpoint-url": { kind: "endpoint-url" },
  "webhook-url": { kind: "webhook-url" },
  "invalid-date": { kind: "invalid-date" },
  "date-range-reversed": { kind: "date-range-reversed" },
  "money-format": { kind: "money-format" },
  "money-too-large": { kind: "money-too-large", max: 100_000_00, currency: "CNY" },
  "duration-too-short": { kind: "duration-too-short", seconds: 30 },
  "duration-too-long": { kind: "duration-too-long", seconds: 30 * 86_400 },
  "password-too-long": { kind: "password-too-long", max: 72 },
  "canned-reason-length": { kind: "canned-reason-length", line: 2, min: 5, max: 500 },
  "too-many-canned-reasons": { kind: "too-many-canned-reasons", max: 12 },
  "channel-key-required": { kind: "channel-key-required", event: "pay" },
  "amount-required": { kind: "amount-required" },
  "key-name-format": { kind: "key-name-format" },
  "form-version-missing": { kind: "form-version-missing" },
  "page-position-unknown": { kind: "page-position-unknown" },
  "control-characters": { kind: "control-characters" },
  invalid: { kind: "invalid" },
};

/** What the server actions answer when they refuse a submission, made by the real error edge. */
function publicErrors(locale: Locale): PublicError[] {
  const fields = Object.fromEntries(Object.entries(FIELD_PROBLEMS).map(([kind, problem]) => [`field-${kind}`, [problem]]));
  const errors = [
    new AppError("invalid-input", undefined, { fields }),
    new AppError("forbidden", { kind: "event-not-for-role", event: "pay", roles: ["ops", "manager"] }),
    new AppError("forbidden"),
    new AppError("not-found", { kind: "order-not-found", orderNo: ORDER_NO }),
    new Error("connection reset"),
  ];
  return errors.map((error) => toPublicError(error, "3f2a9c1e-7d44-4b0e-9a61-2c8d5e0f7b13", locale));
}

const at = new Date("2026-03-14T08:00:00Z");
const transition = (id: number, event: TransitionRecord["event"], from: TransitionRecord["from"], to: TransitionRecord["to"], i: number): TransitionRecord => ({
  id,
  event,
  from,
  to,
  bizKey: ["wx-4200001", "", "rf-77001", "console:5f0c"][i % 4]!,
  actor: ["channel:wechat", "game:server", "staff:ops@example.com"][i % 3]!,
  source: SOURCES[i % SOURCES.length]!,
  reason: i % 2 === 0 ? "玩家反馈没有到账" : null,
  at,
});
const HISTORY: TransitionRecord[] = [
  transition(1, "pay", "created", "paid", 0),
  transition(2, "begin-delivery", "paid", "delivering", 1),
  transition(3, "confirm-delivery", "delivering", "delivered", 2),
  transition(4, "request-refund", "delivered", "refunding", 3),
  transition(5, "reject-refund", "refunding", "delivered", 4),
  transition(6, "confirm-refund", "refunding", "refunded", 5),
  transition(7, "close", "created", "closed", 6),
];

/** Every kind of timeline entry, and every way each can read (webhook states, approval outcomes). */
const TIMELINE = mergeTimeline({
  transitions: HISTORY,
  grants: [
    { id: 1, sku: "gems-60", grantId: "repair:gems-60:0", quantity: 4, source: "console", actor: "staff:ops@example.com", reason: "玩家反馈没有到账", at },
    { id: 2, sku: "gems-60", grantId: "refund:rf-77001", quantity: -4, source: "callback", actor: "channel:wechat", reason: null, at },
  ],
  approvals: [
    { id: 7, requestedBy: "staff:agent@example.com", reason: "误购", amount: 12_800, status: "approved", decidedBy: "staff:manager@example.com", decisionReason: "属实", decidedAt: at, createdAt: at },
    { id: 8, requestedBy: "staff:agent@example.com", reason: "误购", amount: 12_800, status: "rejected", decidedBy: "staff:manager@example.com", decisionReason: "已使用", decidedAt: at, createdAt: at },
    { id: 9, requestedBy: "staff:agent@example.com", reason: "误购", amount: 12_800, status: "rejected", decidedBy: "staff:manager@example.com", decisionReason: null, decidedAt: at, createdAt: at },
  ],
  allExceptions: [
    { id: 3, kind: "second-payment", event: "pay", bizKey: "wx-4200001", amount: 12_800, detail: {}, actor: "channel:wechat", status: "resolved", createdAt: at, resolvedAt: at, resolvedBy: "staff:ops@example.com" },
  ],
  outbox: [
    { id: 1, topic: "order.transitioned", status: "delivered", attempts: 1, lastError: null, createdAt: at, deliveredAt: at },
    { id: 2, topic: "order.granted", status: "pending", attempts: 0, lastError: null, createdAt: at, deliveredAt: null },
    { id: 3, topic: "order.granted", status: "pending", attempts: 3, lastError: "HTTP 503", createdAt: at, deliveredAt: null },
    { id: 4, topic: "order.transitioned", status: "dead", attempts: 8, lastError: "HTTP 503", createdAt: at, deliveredAt: null },
    { id: 5, topic: "order.transitioned", status: "delivered", attempts: 0, lastError: "no webhook configured", createdAt: at, deliveredAt: at },
  ],
  notes: [
    { id: 41, author: "staff:agent@example.com", body: "玩家来电：说钻石没到账", correctsId: null, at },
    { id: 42, author: "staff:agent@example.com", body: "更正：是皮肤没到账", correctsId: 41, at },
  ],
  auditFacts: [
    { id: 60, action: "approval.rejected", actor: "staff:manager@example.com", target: null, detail: { approvalId: 9, refusal: { kind: "stale-state", expected: "delivered", actual: "refunding" } }, at },
    { id: 61, action: "settings.updated", actor: "staff:manager@example.com", target: "tenant:fangzhou", detail: {}, at },
  ],
});

const LINES: OrderLineDetail[] = [
  { sku: "gems-60", kind: "currency", expected: 6, granted: 4, reversed: 0, pending: 2, grants: [{ id: 1, sku: "gems-60", grantId: "repair:gems-60:0", quantity: 4, source: "console", actor: "staff:ops@example.com", reason: null, at }] },
  { sku: "skin-dragon", kind: "cosmetic", expected: 1, granted: 1, reversed: 1, pending: 0, grants: [] },
];

const TAKE_BACK = {
  lines: [
    { sku: "gems-60", kind: "currency", held: 4, units: 4, rule: "revoke" as const },
    { sku: "stamina-5", kind: "stamina", held: 5, units: 5, rule: "negative-balance" as const },
    { sku: "skin-dragon", kind: "cosmetic", held: 1, units: 1, rule: "write-off" as const },
  ],
  revokeEndpointSet: true,
};
const takeBackRow = (id: number, sku: string, kind: string, units: number, rule: OrderTakeBack["rule"], status: OrderTakeBack["status"]): OrderTakeBack => ({
  id,
  sku,
  kind,
  units,
  rule,
  status,
  attempts: 0,
  lastError: null,
  createdAt: at,
});
/** A failed revoke and a write-off: the two that "reversed" used to contradict. */
const TAKE_BACKS = [takeBackRow(1, "gems-60", "currency", -4, "revoke", "failed"), takeBackRow(2, "skin-dragon", "cosmetic", -1, "write-off", "recorded")];

/** Every view of the order page's forms and panels, as `[what, element]`. */
function views(locale: Locale): [string, ReactNode][] {
  const cannedReasons = { "request-refund": ["玩家误购，道具未使用"], close: ["玩家放弃购买"] };
  const form = { tenant: "fangzhou", orderNo: ORDER_NO, version: 3, state: "paid" as const, currency: "CNY", cannedReasons, onClose: () => undefined };
  const order = { id: 1, tenantId: "fangzhou", orderNo: ORDER_NO, playerId: "p-1001", amount: 12_800, currency: "CNY", state: "paid" as const, stateAt: at, version: 3 };
  const approvals = [
    { id: 8, requestedBy: "staff:agent@example.com", reason: "误购", amount: 12_800, status: "rejected", decidedBy: "staff:manager@example.com", decisionReason: "已使用", decidedAt: at, createdAt: at },
    { id: 10, requestedBy: "staff:agent@example.com", reason: "误购", amount: 12_800, status: "pending", decidedBy: null, decisionReason: null, decidedAt: null, createdAt: at },
  ];
  return [
    ["order facts", h(OrderFacts, { order, tenantName: "方舟", createdAt: at, payment: paymentOf(HISTORY) })],
    ["order facts, unpaid", h(OrderFacts, { order, tenantName: "方舟", createdAt: at, payment: null })],
    ["order facts, paid by hand", h(OrderFacts, { order, tenantName: "方舟", createdAt: at, payment: paymentOf([{ ...HISTORY[0]!, actor: "staff:ops@example.com" }]) })],
    [
      "order facts, honouring a late payment",
      h(OrderFacts, {
        order: { ...order, orderNo: `${ORDER_NO}-H7` },
        tenantName: "方舟",
        createdAt: at,
        payment: paymentOf([{ ...HISTORY[0]!, actor: "staff:ops@example.com" }], { orderNo: ORDER_NO, caseId: 7, sentBy: "channel:wechat" }),
      }),
    ],
    ["dwell, on time", h(DwellFlag, { state: "paid", stateAt: at, dwell: { secondsInState: 90, maxDwellSeconds: 300, stuck: false } })],
    ["dwell, stuck", h(DwellFlag, { state: "paid", stateAt: at, dwell: { secondsInState: 7_200, maxDwellSeconds: 300, stuck: true } })],
    ["pending approval", h(PendingApprovalBanner, { approval: pendingApproval(approvals)!, canApprove: true })],
    ["refused refunds", h(RefusedRefunds, { refused: refusedRefunds(approvals, HISTORY) })],
    ["refused refunds, recorded by staff", h(RefusedRefunds, { refused: refusedRefunds([], [{ ...HISTORY[4]!, actor: "staff:ops@example.com" }]) })],
    ...ORDER_STATES.flatMap((state): [string, ReactNode][] => [
      [`next events from ${state}`, h(NextEvents, { state, role: "agent" })],
      [`next events from ${state} for ops`, h(NextEvents, { state, role: "ops" })],
      [`diagram at ${state}`, h(StateDiagram, { state, previous: "delivered" })],
      [`applied: ${state}`, h(EventOutcome, { outcome: { result: "applied", state, version: 4 } })],
      [`duplicate: ${state}`, h(EventOutcome, { outcome: { result: "duplicate", state, version: 4 } })],
    ]),
    ["approval requested", h(EventOutcome, { outcome: { result: "approval-requested" } })],
    ["approval pending", h(EventOutcome, { outcome: { result: "approval-pending" } })],
    ...refusals.flatMap((refusal): [string, ReactNode][] => [
      [`illegal: ${refusal.kind}`, h(EventOutcome, { outcome: { result: "illegal", refusal } })],
      [`rejected: ${refusal.kind}`, h(EventOutcome, { outcome: { result: "rejected", refusal } })],
      [`grant refused: ${refusal.kind}`, h(GrantOutcome, { outcome: { result: "refused", refusal } })],
    ]),
    ...(["stale-version", "stale-state"] as const).map((kind): [string, ReactNode] => [
      `stale (${kind})`,
      h(EventOutcome, { outcome: { result: "stale", refusal: REFUSALS[kind]!, seenVersion: 1, version: 3, since: HISTORY } }),
    ]),
    ["grant applied", h(GrantOutcome, { outcome: { result: "applied", quantity: 2 } })],
    ["grant duplicate", h(GrantOutcome, { outcome: { result: "duplicate", quantity: 2 } })],
    ["repair completed", h(RepairOutcome, { orderNo: ORDER_NO, result: { result: "completed", steps: REPAIR_STEPS } })],
    ...repairProblems.flatMap((problem): [string, ReactNode][] => [
      [`repair incomplete: ${problem.kind}`, h(RepairOutcome, { orderNo: ORDER_NO, result: { result: "incomplete", steps: REPAIR_STEPS, problem } })],
      [`repair not possible: ${problem.kind}`, h(RepairOutcome, { orderNo: ORDER_NO, result: { result: "not-possible", problem, nothingToDo: false } })],
    ]),
    ["repair in progress", h(RepairOutcome, { orderNo: ORDER_NO, result: { result: "in-progress" } })],
    ["repair not found", h(RepairOutcome, { orderNo: ORDER_NO, result: { result: "not-found" } })],
    ...publicErrors(locale).map((error): [string, ReactNode] => [`failure: ${error.code}`, h(FailureNotice, { error, shownFields: new Set<string>() })]),
    ...ORDER_EVENTS.map((event): [string, ReactNode] => [`${event} form`, h(EventDialog, { ...form, events: ORDER_EVENTS, event })]),
    ["refund form above the approval amount", h(EventDialog, { ...form, events: ORDER_EVENTS, event: "request-refund", refundApproval: { amount: 10_000 }, takeBack: TAKE_BACK })],
    ["grant form", h(GrantDialog, { ...form, sku: "gems-60", pending: 2 })],
    ["repair form", h(RepairDialog, form)],
    ["action buttons", h("div", null, h(EventActions, { ...form, events: ORDER_EVENTS }), h(RepairDeliveryButton, form), h(GrantLineButton, { ...form, sku: "gems-60", pending: 2 }))],
    ["timeline", h(Timeline, { entries: TIMELINE, currency: "CNY", note: { tenant: "fangzhou", orderNo: ORDER_NO } })],
    ["empty timeline", h(Timeline, { entries: [], currency: "CNY" })],
    ["note form", h(NoteComposer, { tenant: "fangzhou", orderNo: ORDER_NO, correcting: null, onDone: () => undefined })],
    ["note correction form", h(NoteComposer, { tenant: "fangzhou", orderNo: ORDER_NO, correcting: { id: 41, body: "玩家来电" }, onDone: () => undefined })],
    ["line progress", h(LineProgressList, { lines: LINES })],
    ["line progress after a refund", h(LineProgressList, { lines: LINES, takeBacks: TAKE_BACKS })],
  ];
}

/** One of each step, answered with each answer transit() and grant() can give. */
const STEP_ANSWERS = ["applied", "duplicate", "illegal", "stale", "rejected", "not-found", "invalid-state", "unknown-sku", "invalid-quantity", "over-delivery", "reserved-grant-id"];
const REPAIR_STEPS = STEP_ANSWERS.flatMap((result) => [
  { step: { kind: "begin-delivery" as const }, result },
  { step: { kind: "grant" as const, sku: "gems-60", quantity: 2 }, result },
  { step: { kind: "confirm-delivery" as const }, result },
]);

const MESSAGES = { en, zh } as const;

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(h(NextIntlClientProvider, { locale, messages: MESSAGES[locale], timeZone: "Asia/Shanghai", children: node }));
}

const MACHINE_NAMES = new Set<string>([...ORDER_STATES, ...ORDER_EVENTS]);
const MONOSPACED = /<(span|text|code)\b[^>]*\bclass="[^"]*\bfont-mono\b[^"]*"[^>]*>([^<]*)<\/\1>/g;
const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

/** The words a reader would see or hear, with the data (see the top of this file) taken out. */
function wordsOutsideData(html: string): string {
  const marked = html
    // A break opportunity inside an id (components/ui/breakable.tsx) is no space in the text.
    .replace(/<wbr\s*\/?>/g, "")
    .replace(/<script\b[^>]*>.*?<\/script>/gs, " ")
    .replace(/<time\b[^>]*>.*?<\/time>/gs, " ")
    .replace(MONOSPACED, (element, _tag, name: string) => (MACHINE_NAMES.has(name) ? " " : element));
  const spoken = [...marked.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  let text = `${marked.replace(/<[^>]*>/g, " ")} ${spoken.join(" ")}`.replace(/&#?\w+;/g, (e) => ENTITIES[e] ?? e);
  for (const data of [...DATA].sort((a, b) => b.length - a.length)) text = text.split(data).join(" ");
  return text.replace(/\s+/g, " ");
}

describe("the order page in Chinese", () => {
  it("shows every form, outcome, refusal and panel without English outside data", () => {
    const cases = views("zh");
    const english = cases.flatMap(([what, node]) => {
      const text = wordsOutsideData(render("zh", node));
      const words = text.match(/[A-Za-z]{2,}/g);
      return words ? [{ what, words: [...new Set(words)], text }] : [];
    });
    expect(english).toEqual([]);
    // The views really rendered their words (a blank render would pass the check above).
    const all = cases.map(([, node]) => wordsOutsideData(render("zh", node))).join(" ");
    for (const phrase of ["已拒绝：明细", "订单已是已关闭", "× 2：会超发", "没有成功：部分输入无效。", "渠道支付交易号", "至少 5 个字符"]) expect(all).toContain(phrase);
    for (const phrase of ["收回 × 4（退款）", "已被备注 #2 更正", "尝试 8 次后放弃", "已批准，但未能发起退款", "添加内部备注", "更正这条备注"]) expect(all).toContain(phrase);
    // The header's facts and flags, who may trigger what, and a message the relay never sent.
    for (const phrase of ["支付流水号", "超过本产品的上限 5 分钟", "无需再次申请", "此订单的退款此前被拒绝过 2 次", "仅限运营和经理", "关闭后无法撤销", "本产品未配置回调地址", "选择常用原因"]) {
      expect(all).toContain(phrase);
    }
  });

  it("gives every field of every form its own id, so two open forms never share one", () => {
    const html = render("zh", h("div", null, ...views("zh").filter(([what]) => what.endsWith("form")).map(([, node]) => node)));
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe("the order page in English", () => {
  const words = (node: ReactNode) => render("en", node).replace(/<[^>]*>/g, "").replace(/&#x27;/g, "'");
  const order = { id: 1, tenantId: "fangzhou", orderNo: `${ORDER_NO}-H7`, playerId: "p-1001", amount: 12_800, currency: "CNY", state: "paid" as const, stateAt: at, version: 3 };

  // Issue 29, item 11.
  it("names who refused a refund: the channel, or the staff member who recorded it", () => {
    const staff = words(h(RefusedRefunds, { refused: refusedRefunds([], [{ ...HISTORY[4]!, actor: "staff:ops@example.com" }]) }));
    expect(staff).toContain("Refusal recorded by staff:ops@example.com in the console (receipt wx-4200001)");
    expect(staff).not.toContain("channel");
    const channel = words(h(RefusedRefunds, { refused: refusedRefunds([], [{ ...HISTORY[4]!, actor: "channel:wechat" }]) }));
    expect(channel).toContain("Refused by the channel wechat (receipt wx-4200001)");
  });

  // Issue 29, item 16.
  it("shows an honoured order's channel and links the order its payment reached first", () => {
    const honoured = render(
      "en",
      h(OrderFacts, {
        order,
        tenantName: "Fangzhou",
        createdAt: at,
        payment: paymentOf([{ ...HISTORY[0]!, actor: "staff:ops@example.com" }], { orderNo: ORDER_NO, caseId: 7, sentBy: "channel:wechat" }),
      }),
    );
    expect(honoured).toMatch(/data-testid="payment-channel"[^>]*>wechat</);
    expect(honoured.replace(/<[^>]*>/g, "")).toContain("recorded by staff:ops@example.com");
    expect(honoured).toContain(`href="/orders/fangzhou/${ORDER_NO}"`);
    expect(honoured.replace(/<[^>]*>/g, "")).toContain(`This order honours a payment that reached order ${ORDER_NO} after it had closed (case #7).`);
  });

  // Issue 29, item 12 and item 15 (line kinds in the refund form).
  it("says before Confirm that a refund goes to a manager, and names line kinds", () => {
    const form = { tenant: "fangzhou", orderNo: ORDER_NO, version: 3, state: "paid" as const, currency: "CNY", cannedReasons: {}, events: ORDER_EVENTS, onClose: () => undefined };
    const above = words(h(EventDialog, { ...form, event: "request-refund", refundApproval: { amount: 10_000 }, takeBack: TAKE_BACK }));
    expect(above).toMatch(/This refund is above the product's approval amount of (CN)?¥100\.00: confirming asks a manager to approve it/);
    expect(above).toContain("Ask a manager to approve");
    expect(above).toContain("Currency");
    expect(above).toContain("Cosmetics");
    const below = words(h(EventDialog, { ...form, event: "request-refund", takeBack: TAKE_BACK }));
    expect(below).not.toContain("approval amount");
    expect(below).toContain("Confirm: Request refund");
  });

  // The Playwright specs (e2e/console.spec.ts, e2e/ops.spec.ts) find these words and test ids.
  it("keeps the words the end-to-end specs look for", () => {
    const text = (node: ReactNode) => render("en", node).replace(/<[^>]*>/g, "");
    expect(text(h(EventOutcome, { outcome: { result: "applied", state: "refunding", version: 4 } }))).toContain("Done: the order is now refunding");
    expect(text(h(EventOutcome, { outcome: { result: "approval-requested" } }))).toContain("a manager has been asked to approve");
    expect(text(h(GrantOutcome, { outcome: { result: "applied", quantity: 2 } }))).toBe("Granted 2.");
    const eventForm = render(
      "en",
      h(EventDialog, { tenant: "fangzhou", orderNo: ORDER_NO, version: 3, state: "paid", currency: "CNY", events: ORDER_EVENTS, cannedReasons: {}, event: "request-refund", onClose: () => undefined }),
    );
    expect(eventForm).toMatch(/<label[^>]*>Reason[^<]*<\/label>/);
    expect(eventForm).toContain('data-testid="confirm-event"');
    expect(eventForm).toMatch(/<button[^>]*>Cancel<\/button>/);
    const grantForm = render("en", h(GrantDialog, { tenant: "fangzhou", orderNo: ORDER_NO, sku: "gems-60", pending: 2, onClose: () => undefined }));
    expect(grantForm).toMatch(/<label[^>]*>Quantity[^<]*<\/label>/);
    expect(grantForm).toMatch(/<button[^>]*type="submit"[^>]*>Confirm<\/button>/);
    expect(text(h(GrantLineButton, { tenant: "fangzhou", orderNo: ORDER_NO, sku: "gems-60", pending: 2 }))).toBe("Grant");
    const composer = render("en", h(NoteComposer, { tenant: "fangzhou", orderNo: ORDER_NO, correcting: null, onDone: () => undefined }));
    expect(composer).toMatch(/<label[^>]*>Add an internal note<\/label>/);
    expect(composer).toMatch(/<button[^>]*type="submit"[^>]*>Add note<\/button>/);
    const timeline = render("en", h(Timeline, { entries: TIMELINE, currency: "CNY" })).replace(/<[^>]*>/g, "");
    expect(timeline).toContain("Granted gems-60 × 4");
    expect(timeline).toContain("“玩家反馈没有到账”");
  });
});

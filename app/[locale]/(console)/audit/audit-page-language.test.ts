// The audit explorer and the security log in Chinese: every kind of fact the table shows, and both
// filter forms, rendered (React's server renderer, no browser) with no English outside data.
//
// Data, which may stay in Latin letters: the facts of the fixtures (actors, products, order numbers,
// SKUs, grant ids, targets, addresses, detail fields), the contract names teams grep for (events,
// states, audit action names, sources, kinds of line), and timestamps (<time>).
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { AuditFilterForm } from "@/components/audit/audit-filter-form";
import { AuditTable } from "@/components/audit/audit-table";
import { SecurityFilterForm } from "@/components/security/security-filter-form";
import type { ActionRow, AuditRow } from "@/lib/audit/queries/audit-row";
import { KNOWN_ACTIONS, kindOfAction } from "@/lib/audit/queries/kinds";
import type { Locale } from "@/lib/i18n/locales";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "@/lib/orders/machine";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

// The table's links (components/ui/link.tsx) take the router, for reading a record on intent; rendered here without one.
vi.mock("next/navigation", async (original) => ({ ...(await original<object>()), useRouter: () => ({ prefetch: () => undefined }) }));

const at = "2026-11-20T10:00:00.000000Z";
const base = { at, cursor: "c", orderId: 1, orderNo: "FZ20260314000042", tenantId: "fangzhou", reason: "玩家反馈没有到账" };

const DETAILS: Readonly<Record<string, Record<string, unknown>>> = {
  "approval.requested": { approvalId: 7, amount: 12_800, reason: "误购" },
  "approval.approved": { approvalId: 7, requestedBy: "staff:agent@example.com", reason: "属实" },
  "approval.rejected": { approvalId: 8, requestedBy: "staff:agent@example.com", refusal: { kind: "stale-state", expected: "delivered", actual: "refunding" } },
  "bulk.previewed": { batchId: "b-1", orders: 12, willApply: 10, duplicates: 0 },
  "bulk.started": { batchId: "b-1", orders: 12, reason: "故障补偿", rerun: true, retried: 2 },
  "bulk.finished": { batchId: "b-1", total: 12, pending: 0, applied: 9, "nothing-to-do": 1, refused: 1, failed: 1 },
  "settings.updated": { field: "refund_approval_amount", before: 10_000, after: 20_000, currency: "CNY" },
  "user.updated": { before: { role: "agent", tenantIds: ["fangzhou"] }, after: { role: "ops", tenantIds: ["fangzhou", "xiaoxiao"] } },
  "sign-in.failed": { why: "wrong-password" },
  "sign-in.locked": { scope: "account", failures: 5, windowSeconds: 900, retryAfterSeconds: 840 },
  // As lib/cases writes them: empty values included.
  "case.taken": { caseId: 9, kind: "second-payment", previousOwner: null },
  "case.resolving": { caseId: 9, kind: "second-payment", resolution: "refund", reason: "重复付款" },
  "case.dismissed": { caseId: 10, kind: "delivery-failed", resolution: null, reason: "已人工补发" },
};

function actionRow(action: string, i: number): ActionRow {
  return {
    ...base,
    id: 100 + i,
    cursor: `a${i}`,
    log: "action",
    kind: kindOfAction(action),
    action,
    actor: "staff:manager@example.com",
    target: "staff:ann@example.com",
    detail: DETAILS[action] ?? {},
    ip: "10.0.0.2",
    currency: "CNY",
  };
}

const ROWS: AuditRow[] = [
  { ...base, id: 1, cursor: "t1", log: "transition", kind: "transition", actor: "channel:wechat", event: "pay", from: "created", to: "paid", source: "callback", bizKey: "wx-4200001" },
  { ...base, id: 2, cursor: "g2", log: "grant", kind: "grant", actor: "staff:ops@example.com", sku: "gems-60", quantity: 10, grantId: "console:5f0c", source: "console" },
  { ...base, id: 3, cursor: "g3", log: "grant", kind: "grant", actor: "channel:wechat", sku: "gems-60", quantity: -10, grantId: "refund:rf-77001", source: "callback" },
  { ...base, id: 4, cursor: "n4", log: "note", kind: "note", actor: "staff:agent@example.com", reason: null, body: "玩家来电", correctsId: null },
  { ...base, id: 5, cursor: "n5", log: "note", kind: "note", actor: "staff:agent@example.com", reason: null, body: "更正：是皮肤", correctsId: 4 },
  ...KNOWN_ACTIONS.map(actionRow),
  // An action this version does not know: shown by its name.
  { ...actionRow("legacy.thing", 99), kind: null },
];

const DATA = [
  "fangzhou",
  "xiaoxiao",
  "FZ20260314000042",
  "gems-60",
  "console:5f0c",
  "refund:rf-77001",
  "wx-4200001",
  "staff:ops@example.com",
  "staff:agent@example.com",
  "staff:manager@example.com",
  "staff:ann@example.com",
  "channel:wechat",
  "10.0.0.2",
  "legacy.thing",
  ...KNOWN_ACTIONS,
  ...ORDER_EVENTS,
  ...ORDER_STATES,
  ...SOURCES,
  ...Object.values(DETAILS).flatMap((d) => Object.keys(d)),
  "refund_approval_amount",
  "account",
  "role",
  "tenantIds",
  "agent",
  "ops",
  "b-1",
  // A case's kind and resolution: contract names, shown in monospace beside their label.
  "second-payment",
  "delivery-failed",
  "refund",
  "CNY",
  "UTC",
  "API",
];

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(h(NextIntlClientProvider, { locale, messages: { en, zh }[locale], timeZone: "Asia/Shanghai", children: node }));
}

const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

function wordsOutsideData(html: string): string {
  const marked = html.replace(/<wbr\s*\/?>/g, "").replace(/<time\b[^>]*>.*?<\/time>/gs, " ");
  const spoken = [...marked.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  let text = `${marked.replace(/<[^>]*>/g, " ")} ${spoken.join(" ")}`.replace(/&#?\w+;/g, (e) => ENTITIES[e] ?? e);
  for (const data of [...new Set(DATA)].sort((a, b) => b.length - a.length)) text = text.split(data).join(" ");
  return text.replace(/\s+/g, " ");
}

const actorHref = (actor: string) => `/audit?actor=${encodeURIComponent(actor)}`;
const VIEWS: [string, ReactNode][] = [
  ["explorer table", h(AuditTable, { rows: ROWS, actorHref })],
  ["security table", h(AuditTable, { rows: ROWS, actorHref, showIp: true })],
  ["explorer filters", h(AuditFilterForm, { filters: {}, raw: {}, tenants: [{ id: "fangzhou", name: "fangzhou" }], actors: ["staff:ops@example.com"] })],
  ["security filters", h(SecurityFilterForm, { filters: {}, raw: {} })],
];

describe("the audit explorer and the security log in Chinese", () => {
  it("word every kind of fact and both filter forms without English outside data", () => {
    const english = VIEWS.flatMap(([what, node]) => {
      const words = wordsOutsideData(render("zh", node)).match(/[A-Za-z]{2,}/g);
      return words ? [{ what, words: [...new Set(words)] }] : [];
    });
    expect(english).toEqual([]);
    const all = VIEWS.map(([, node]) => wordsOutsideData(render("zh", node))).join(" ");
    for (const phrase of ["收回 × 10（退款）", "更正备注 #4", "申请 #7：退款 ¥128.00", "已批准，但未能发起退款", "共 12 个订单：已补偿 9 个", "密码错误", "锁定", "全部登录"]) {
      expect(all).toContain(phrase);
    }
  });

  it("offers every kind and action in the filters, and shows a case's facts in words, without empty values", () => {
    const form = render("en", VIEWS[2]![1]);
    for (const value of ["case", "refund", "take-back", "refund-review", "store"]) expect(form).toContain(`<option value="${value}">`);
    for (const value of ["case.dismissed", "case.taken", "refund.requested", "take-back.failed", "refund-review.answered", "store.notification"]) expect(form).toContain(`<option value="${value}">`);
    const table = render("zh", h(AuditTable, { rows: ROWS, actorHref })).replace(/<[^>]*>/g, " ");
    expect(table).toContain("工单已驳回");
    expect(table).toContain("重复支付");
    expect(table).not.toMatch(/previousOwner|resolution: null/);
  });

  it("keeps the English the end-to-end specs look for", () => {
    const text = render("en", h(AuditTable, { rows: ROWS, actorHref })).replace(/<[^>]*>/g, "");
    expect(text).toContain("Granted gems-60 × 10");
    expect(text).toContain("Refund approved");
  });
});

// The case queue and the order page's cases in Chinese: every kind of case explained, every status,
// the SLA, the owner and every action the viewer is offered, rendered (React's server renderer, no
// browser) with no English outside data. Data may stay Latin: ids, order numbers, transaction and
// grant ids, SKUs, emails, and the contract names teams grep for (kinds of case).
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { CaseCard } from "@/components/cases/case-card";
import { QueueCases } from "@/components/orders/queue-cases";
import type { CaseFacts, CaseRefund } from "@/lib/cases/facts";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import { caseView } from "@/lib/cases/view";
import type { Locale } from "@/lib/i18n/locales";
import { EXCEPTION_KINDS } from "@/lib/orders/types";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

vi.mock("next/navigation", async (original) => ({ ...(await original<object>()), useRouter: () => ({ refresh: () => undefined }) }));
// Only their presence as imports matters here: nothing is submitted.
vi.mock("./actions/take-case", () => ({ takeCase: vi.fn() }));
vi.mock("./actions/assign-case", () => ({ assignCase: vi.fn() }));
vi.mock("./actions/resolve-case", () => ({ resolveCase: vi.fn() }));
vi.mock("./actions/dismiss-case", () => ({ dismissCase: vi.fn() }));
vi.mock("./actions/resend-case-refund", () => ({ resendCaseRefund: vi.fn() }));
vi.mock("./actions/record-case-refund-told", () => ({ recordCaseRefundTold: vi.fn() }));

const ME = "staff:ops@example.com";
const base: CaseFacts = {
  id: 41,
  tenantId: "xiaoxiao",
  orderId: 7,
  kind: "payment-after-close",
  event: "pay",
  bizKey: "alipay-20261203100301",
  amount: 18_00,
  currency: "CNY",
  detail: { refusal: { kind: "terminal-state", state: "closed", event: "pay" }, state: "closed" },
  actor: "channel:alipay",
  status: "open",
  owner: null,
  takenAt: null,
  createdAt: "2026-12-03T10:03:00.000Z",
  slaDueAt: "2026-12-03T14:03:00.000Z",
  ageSeconds: 600,
  dueInSeconds: 13_800,
  resolution: null,
  resolutionRef: null,
  resolvedReason: null,
  resolvedAt: null,
  resolvedBy: null,
  order: { orderNo: "XX20261203000007", state: "closed", amount: 18_00, currency: "CNY", playerId: "xx-p-1" },
  related: { event: "close", bizKey: "timeout", source: "job", actor: "system:timeout-close", at: "2026-12-03T10:00:00.000Z" },
  lines: null,
  refunds: [],
  reservedOfPayment: 0,
  takeBack: null,
  webhookSet: true,
};
const goods: Partial<CaseFacts> = {
  amount: null,
  order: { ...base.order!, state: "delivering" },
  lines: [{ sku: "coins", kind: "currency", expected: 320, granted: 200, pending: 120 }],
  related: null,
};

const takeBack: CaseFacts = {
  ...base,
  id: 53,
  kind: "take-back-failed",
  event: null,
  amount: null,
  bizKey: "take-back:31",
  actor: "system:take-backs",
  detail: {
    takeBackId: 31,
    sku: "coins",
    units: -320,
    rule: "revoke",
    ledgerGrantId: "refund:rf-77",
    endpoint: "revoke",
    revocationId: "refund:rf-77:XX20261203000007:coins",
    attempts: 15,
    lastError: "HTTP 500: refused",
  },
  order: { ...base.order!, state: "refunded" },
  related: null,
  takeBack: { id: 31, status: "failed", endpoint: "revoke", endpointSet: false, attempts: 15, lastError: "HTTP 500: refused" },
};

const refund = (refundId: string, status: "requested" | "sent", message: CaseRefund["message"], told: CaseRefund["told"] = null): CaseRefund => ({
  refundId,
  amount: 18_00,
  status,
  channelRef: null,
  requestedBy: ME,
  createdAt: base.createdAt,
  updatedAt: base.createdAt,
  message,
  told,
});
function refundCases(): CaseFacts[] {
  const taken = { ...base, status: "in-progress", owner: ME, resolution: "refund" } as const;
  return [
    { ...taken, id: 60, webhookSet: false, refunds: [refund("rf-60", "requested", { id: 1, status: "delivered", attempts: 0, lastError: NO_WEBHOOK })] },
    { ...taken, id: 61, refunds: [refund("rf-61", "requested", { id: 2, status: "dead", attempts: 15, lastError: "HTTP 502: bad gateway" })] },
    { ...taken, id: 62, refunds: [refund("rf-62", "requested", { id: 3, status: "pending", attempts: 2, lastError: "HTTP 503: busy" })] },
    { ...taken, id: 63, refunds: [refund("rf-63", "requested", { id: 4, status: "pending", attempts: 0, lastError: null })] },
    { ...taken, id: 64, refunds: [refund("rf-64", "sent", null)] },
    { ...taken, id: 65, refunds: [refund("rf-65", "sent", null, { actor: ME, reason: "已在支付宝商户后台提交退款", at: base.createdAt })] },
  ];
}

const CASES: CaseFacts[] = [
  base,
  { ...base, id: 42, kind: "payment-after-refund", related: { ...base.related!, event: "confirm-refund", source: "callback" }, status: "in-progress", owner: ME },
  { ...base, id: 43, kind: "second-payment", related: { ...base.related!, event: "pay", bizKey: "wechat-1" }, owner: "staff:ann@example.com", status: "in-progress" },
  {
    ...base,
    id: 44,
    kind: "amount-mismatch",
    amount: 33_00,
    detail: { refusal: { kind: "amount-mismatch", paid: 33_00, expected: 30_00, currency: "CNY" } },
    order: { ...base.order!, state: "created", amount: 30_00 },
    related: null,
    dueInSeconds: -1_800,
    refunds: [{ refundId: "rf-9", amount: 3_00, status: "failed", channelRef: "ALIPAY-RF-9", requestedBy: ME, createdAt: base.createdAt, updatedAt: base.createdAt, message: null, told: null }],
  },
  { ...base, ...goods, id: 45, kind: "delivery-incomplete", bizKey: "ticket-1", detail: { refusal: { kind: "lines-pending", lines: [{ sku: "coins", granted: 200, expected: 320 }] } } },
  { ...base, ...goods, id: 46, kind: "delivery-failed", bizKey: "coordinator", detail: { attempts: 4, lastError: "HTTP 503: busy", sku: "coins" } },
  { ...base, ...goods, id: 47, kind: "delivery-failed", bizKey: "coordinator", detail: { attempts: 1, lastError: "timed out after 10000 ms", sku: "coins" } },
  {
    ...base,
    ...goods,
    id: 48,
    kind: "delivery-failed",
    bizKey: "unrecorded:deliver:FZ1:coins:0",
    detail: { grantResult: "invalid-state", refusal: { kind: "grant-not-allowed", state: "refunding" }, sku: "coins", quantity: 320, grantId: "deliver:FZ1:coins:0" },
  },
  { ...base, id: 49, kind: "reversal-impossible", amount: null, bizKey: "rf-77", detail: { refusal: { kind: "no-refund-rule", lines: [{ sku: "pet-1", kind: "companion" }] } } },
  {
    ...base,
    id: 52,
    kind: "store-refund-reversed",
    amount: null,
    bizKey: "appstore:2000000123",
    detail: { transactionId: "2000000123", originalTransactionId: "2000000100", notificationUUID: "n-52", state: "refunded" },
    order: { ...base.order!, state: "refunded" },
    related: null,
  },
  takeBack,
  { ...takeBack, id: 54, status: "resolved", resolution: "take-back-done", resolvedBy: "system:take-backs", resolvedAt: base.createdAt },
  // Retried by its owner; the worker has not answered yet (the row is pending: nothing to offer).
  { ...takeBack, id: 55, status: "in-progress", owner: ME, resolution: "retry-take-back", takeBack: { ...takeBack.takeBack!, status: "pending" } },
  // Refunds of money cases still owed an answer, one per place a request can stand (issue 29).
  ...refundCases(),
  { ...base, id: 50, status: "resolved", resolution: "honour", resolutionRef: "XX20261203000007-H50", resolvedBy: ME, resolvedAt: base.createdAt, resolvedReason: "玩家仍要这些宝石" },
  { ...base, id: 51, status: "dismissed", resolvedBy: "staff:manager@example.com", resolvedAt: base.createdAt, resolvedReason: "渠道已自行撤销" },
];

const DATA = [
  ...CASES.flatMap((c) => [c.bizKey, c.order?.orderNo ?? "", c.tenantId, `#${c.id}`]),
  ...EXCEPTION_KINDS,
  "XX20261203000007-H50",
  "ops@example.com",
  "ann@example.com",
  "manager@example.com",
  "wechat-1",
  "coins",
  "pet-1",
  "companion",
  "deliver:FZ1:coins:0",
  "rf-77",
  "refund:rf-77:XX20261203000007:coins",
  "system:take-backs",
  "appstore:2000000123",
  "rf-9",
  ...[60, 61, 62, 63, 64, 65].map((id) => `rf-${id}`),
  "CN¥",
  "¥",
];

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(h(NextIntlClientProvider, { locale, messages: { en, zh }[locale], timeZone: "Asia/Shanghai", children: node }));
}

function wordsOutsideData(html: string): string {
  const marked = html.replace(/<time\b[^>]*>.*?<\/time>/gs, " ");
  const spoken = [...marked.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  let text = `${marked.replace(/<[^>]*>/g, " ")} ${spoken.join(" ")}`.replace(/&#?\w+;/g, " ");
  for (const data of [...new Set(DATA)].filter(Boolean).sort((a, b) => b.length - a.length)) text = text.split(data).join(" ");
  return text.replace(/\s+/g, " ");
}

type Role = "agent" | "ops" | "manager";
const views = (role: Role) => CASES.map((c) => caseView(c, { actor: ME, role }));
const queue = (role: Role) =>
  h(QueueCases, {
    queue: {
      filter: "all",
      counts: { all: { total: 9, more: false }, mine: { total: 1, more: false }, unassigned: { total: 6, more: false }, overdue: { total: 1001, more: true } },
      items: views(role),
      viewerWorks: role !== "agent",
      workedBy: ["ops", "manager"],
    },
    onFilter: () => undefined,
    assignees: [{ email: "ann@example.com", name: "Ann", tenantIds: ["xiaoxiao"] }],
    me: ME,
  });
const cards = (role: Role) => h("div", null, ...views(role).map((view) => h(CaseCard, { key: view.id, view, assignees: [], me: ME })));

describe("cases in Chinese", () => {
  it("the queue and the order page's cards word every kind, state and action without English outside data", () => {
    const english = [queue("ops"), queue("manager"), queue("agent"), cards("manager")].flatMap((node, i) => {
      const words = wordsOutsideData(render("zh", node)).match(/[A-Za-z]{2,}/g);
      return words ? [{ view: i, words: [...new Set(words)] }] : [];
    });
    expect(english).toEqual([]);
    const text = wordsOutsideData(render("zh", queue("manager")));
    for (const phrase of ["订单关闭（超时关闭）3 分钟后", "应付 30.00，渠道报告实付 33.00", "多付 3.00", "已发 200/320", "发货接口返回 503，已尝试 4 次", "已超时 30 分钟", "未能从玩家处收回 × 320（规则：由游戏收回）：收回接口返回 500，已尝试 15 次", "认领", "按付款履约", "接受并退 3.00", "重新调用", "驳回"]) {
      expect(text).toContain(phrase);
    }
    expect(wordsOutsideData(render("zh", cards("manager")))).toContain("游戏随后已完成收回或退还");
    expect(wordsOutsideData(render("zh", cards("manager")))).toContain("已重新调用游戏");
  });

  it("a channel refund says whether its request reached the channel, and why not, in both languages (issue 29)", () => {
    const en = render("en", queue("ops")).replace(/<[^>]*>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");
    expect(en).toContain("Refund rf-60: CN¥18.00, not sent to the payment channel: this product has no webhook configured");
    expect(en).toContain("Refund rf-61: CN¥18.00, not sent to the payment channel: the webhook answered 502, and the relay gave up after 15 attempts");
    expect(en).toContain("Refund rf-62: CN¥18.00, not delivered to the payment channel yet: the webhook answered 503, 2 attempts so far; trying again");
    expect(en).toContain("Refund rf-63: CN¥18.00, on its way to the payment channel");
    expect(en).toContain("Refund rf-64: CN¥18.00, with the payment channel: waiting for its answer");
    expect(en).toContain("Refund rf-65: CN¥18.00, with the payment channel, told another way by ops@example.com");
    // Only the refund that is with the channel is said to be; the others say what holds them.
    expect(en.match(/is with the payment channel: wait for its answer/g)).toHaveLength(2);
    expect(en).toContain("refund rf-60 of this case has not reached the payment channel (this product has no webhook configured)");
    expect(en).toContain("refund rf-63 of this case is on its way to the payment channel");
    // What a person can do: without a webhook, record how the channel was told (resend waits for one);
    // after the relay gave up, resend too; while the relay retries, record-told only.
    const row = (id: number) => render("en", h(QueueCases, { queue: { filter: "all", counts: { all: { total: 1, more: false }, mine: { total: 0, more: false }, unassigned: { total: 0, more: false }, overdue: { total: 0, more: false } }, items: views("ops").filter((v) => v.id === id), viewerWorks: true, workedBy: ["ops", "manager"] }, onFilter: () => undefined, assignees: [], me: ME }));
    expect(row(60)).toContain("Record that the channel was told");
    expect(row(60)).toContain("Resending needs a webhook");
    expect(row(60)).not.toContain("Resend to the channel");
    expect(row(61)).toContain("Resend to the channel");
    expect(row(61)).toContain("Record that the channel was told");
    expect(row(62)).not.toContain("Resend to the channel");
    expect(row(62)).toContain("Record that the channel was told");
    expect(row(63)).not.toContain("Record that the channel was told");
    const zhText = wordsOutsideData(render("zh", queue("ops")));
    for (const phrase of ["未发送给支付渠道：本产品未配置回调地址", "记录已通过其他方式通知渠道", "重新发送给渠道", "已在支付渠道处理，等待渠道答复"]) expect(zhText).toContain(phrase);
  });

  it("an agent's queue says who works cases, and every active row says why the agent cannot act (issue 29)", () => {
    const en = render("en", queue("agent")).replace(/<[^>]*>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");
    expect(en).toContain("Cases are worked by ops or managers.");
    const active = views("agent").filter((v) => v.status === "open" || v.status === "in-progress");
    expect(en.match(/cases are worked by ops or managers: ask them, or open the order/g)).toHaveLength(active.length);
    expect(en).not.toContain(">Take<");
    expect(wordsOutsideData(render("zh", queue("agent")))).toContain("工单由运营或经理处理");
  });

  it("reads as the issue asks in English", () => {
    const text = render("en", queue("manager")).replace(/<[^>]*>/g, "").replace(/&#x27;/g, "'");
    expect(text).toContain("Paid CN¥18.00 by alipay-20261203100301 3 minutes after the order closed (timeout)");
    expect(text).toContain("Expected CN¥30.00, the channel reports CN¥33.00");
    expect(text).toContain("Line coins: 200 of 320 granted; the grant endpoint answered 503, 4 attempts so far");
    expect(text).toContain("Could not take coins × 320 back from the player (rule: Revoke in the game): the revoke endpoint answered 500, 15 attempts");
  });
});

// The order timeline's words for what cases, channel refunds, take-backs, refund reviews and stores
// did to an order (issue 29, items 7 and 14): rendered in both languages (React's server renderer, no
// browser). A fact is told in words; its machine names (actions, kinds, topics) are data, shown in
// monospace in the details, as the end-to-end English check (e2e/english-words.ts) reads them.
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { Timeline } from "@/components/orders/timeline";
import type { Locale } from "@/lib/i18n/locales";
import { unpaidTimeoutReason } from "@/lib/orders/system-reasons";
import { mergeTimeline, type OrderAuditFact } from "@/lib/orders/timeline";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

vi.mock("next/navigation", async (original) => ({ ...(await original<object>()), useRouter: () => ({ refresh: () => undefined }) }));
vi.mock("./actions/add-note", () => ({ addNote: vi.fn() }));

const at = new Date("2026-11-20T10:00:00.000Z");
const fact = (id: number, action: string, detail: Record<string, unknown>, actor = "staff:ops@example.com"): OrderAuditFact => ({ id, action, actor, target: null, detail, at });

const ENTRIES = mergeTimeline({
  transitions: [{ id: 1, event: "close", from: "created", to: "closed", bizKey: "timeout", actor: "system:timeout-close", source: "job", reason: unpaidTimeoutReason(900), at }],
  grants: [],
  approvals: [],
  allExceptions: [
    { id: 1, kind: "delivery-failed", event: null, bizKey: "", amount: null, detail: {}, actor: "system:delivery", status: "dismissed", createdAt: at, resolvedAt: at, resolvedBy: "staff:ops@example.com" },
    { id: 2, kind: "second-payment", event: "pay", bizKey: "wx-2", amount: 600, detail: {}, actor: "channel:wechat", status: "resolved", createdAt: at, resolvedAt: at, resolvedBy: "staff:ops@example.com" },
  ],
  outbox: [
    { id: 1, topic: "store.refund-review-answer", status: "pending", attempts: 2, lastError: "HTTP 503", createdAt: at, deliveredAt: null },
    { id: 2, topic: "refund.requested", status: "delivered", attempts: 1, lastError: null, createdAt: at, deliveredAt: at },
    { id: 3, topic: "order.transitioned", status: "delivered", attempts: 1, lastError: null, createdAt: at, deliveredAt: at },
  ],
  notes: [{ id: 907, author: "staff:agent@example.com", body: "玩家来电", correctsId: null, at }],
  auditFacts: [
    fact(10, "case.taken", { caseId: 2, kind: "second-payment", previousOwner: null }),
    fact(11, "case.resolving", { caseId: 2, kind: "second-payment", resolution: "refund", reason: "重复付款" }),
    fact(12, "refund.requested", { refundId: "rf-9", amount: 600 }),
    fact(13, "case.resolved", { caseId: 2, kind: "second-payment", resolution: "refund", reason: "重复付款" }),
    fact(14, "case.dismissed", { caseId: 1, kind: "delivery-failed", resolution: null, reason: "已人工补发" }),
    fact(15, "take-back.failed", { takeBackId: 3, attempts: 2 }, "system:take-backs"),
    fact(16, "refund-review.answered", { reviewId: 4 }),
    fact(17, "store.notification", { type: "REFUND" }, "store:appstore"),
  ],
});

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(h(NextIntlClientProvider, { locale, messages: { en, zh }[locale], timeZone: "Asia/Shanghai", children: node }));
}

/** What a reader reads: no monospace data, no <time>, no actors or the reasons people typed. */
function readable(html: string): string {
  const data = ["system:timeout-close", "staff:ops@example.com", "staff:agent@example.com", "system:delivery", "system:take-backs", "store:appstore", "channel:wechat", "CNY"];
  let text = html
    .replace(/<time\b[^>]*>.*?<\/time>/gs, " ")
    .replace(/<(span|dt|dd)\b[^>]*\bclass="[^"]*\bfont-mono\b[^"]*"[^>]*>[^<]*<\/\1>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#?\w+;/g, " ");
  for (const d of data) text = text.split(d).join(" ");
  return text.replace(/\s+/g, " ");
}

const timeline = (locale: Locale) => render(locale, h(Timeline, { entries: ENTRIES, currency: "CNY", note: { tenant: "fangzhou", orderNo: "FZ-1" } }));

describe("the order timeline's words for cases, refunds, take-backs, reviews and stores", () => {
  it("tells a dismissed case from a resolved one, and names every fact in words (Chinese: one word for a case)", () => {
    const text = readable(timeline("zh"));
    expect(text.match(/[A-Za-z]{2,}/g)).toBeNull();
    for (const phrase of ["工单已驳回： 发货失败", "工单已解决： 重复支付", "接手工单", "工单处理中", "向支付渠道申请退款", "游戏未能收回物品", "已答复退款审核", "收到商店通知"]) {
      expect(text).toContain(phrase);
    }
    expect(text).toContain("对商店退款审核的答复发送失败");
    expect(text).toContain("内部备注 #1");
    // The timeout job's reason, English in the log, is worded here.
    expect(text).toContain("超过 15 分钟未支付");
    expect(text).not.toContain("异常");
  });

  it("in English: a dismissal is not a resolution, and an answer to a store is not a webhook", () => {
    const text = readable(timeline("en"));
    expect(text).toContain("Case dismissed: Delivery failed");
    expect(text).not.toContain("Exception");
    expect(text).toContain("Answer to the store's refund review failing");
    expect(text).toContain("Refund request to the payment channel delivered");
    expect(text).toContain("Webhook delivered");
    expect(text).toContain("Internal note #1");
    expect(text).toContain("Unpaid for more than 15 minutes");
    // Machine names stay, as data, in the details; empty values are left out.
    const html = timeline("en");
    expect(html).toContain("case.taken");
    expect(html).toContain("store.refund-review-answer");
    expect(html).not.toContain("previousOwner");
  });
});

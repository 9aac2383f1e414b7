// The refund preview and the "goods taken back" list in both languages: every rule, status and
// effect has its words, and the Chinese page has no English outside data (skus, kinds, the network's
// own error message, timestamps). The worker's errors read as the case of the same failure says them.
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import { TakeBackPreview } from "@/components/orders/take-back-preview";
import { takeBackPreview, type TakeBackPreviewData } from "@/lib/orders/take-back-preview";
import { TakenBackList } from "@/components/orders/taken-back-list";
import { LineProgressList } from "@/components/orders/line-progress";
import type { Locale } from "@/lib/i18n/locales";
import { NO_REVOKE_ENDPOINT } from "@/lib/orders/take-back";
import type { OrderTakeBack } from "@/lib/read/order-page-facts";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

const MESSAGES = { en, zh } as const;
// Line kinds the rules know have names in both languages (issue 29, item 15): only an unknown one is data.
const DATA = ["gems-60", "stamina-5", "skin-1", "sword-2", "pet-1", "companion", "connect ECONNREFUSED 10.0.0.7:443"];

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(h(NextIntlClientProvider, { locale, messages: MESSAGES[locale], timeZone: "Asia/Shanghai", children: node }));
}

function text(html: string): string {
  let words = html.replace(/<time\b[^>]*>.*?<\/time>/gs, " ").replace(/<[^>]*>/g, " ").replace(/&#x27;|&quot;|&amp;/g, " ");
  for (const data of [...DATA].sort((a, b) => b.length - a.length)) words = words.split(data).join(" ");
  return words.replace(/\s+/g, " ");
}

const LINES = [
  { sku: "gems-60", kind: "currency", expected: 60, granted: 60, reversed: 0 },
  { sku: "stamina-5", kind: "stamina", expected: 5, granted: 5, reversed: 0 },
  { sku: "skin-1", kind: "cosmetic", expected: 1, granted: 1, reversed: 0 },
  { sku: "sword-2", kind: "item", expected: 2, granted: 0, reversed: 0 },
  { sku: "pet-1", kind: "companion", expected: 1, granted: 1, reversed: 0 },
];
const preview: TakeBackPreviewData = {
  lines: takeBackPreview(LINES, { currency: "revoke", stamina: "negative-balance", cosmetic: "write-off", item: "revoke" }),
  revokeEndpointSet: false,
};
const at = new Date("2026-12-04T10:00:00Z");
const row = (id: number, units: number, rule: OrderTakeBack["rule"], status: OrderTakeBack["status"], lastError: string | null = null): OrderTakeBack => ({
  id,
  sku: "gems-60",
  kind: "currency",
  units,
  rule,
  status,
  attempts: status === "recorded" ? 0 : 2,
  lastError,
  createdAt: at,
});
const TAKE_BACKS = [
  row(1, -60, "revoke", "pending", "HTTP 503 from the game"),
  row(2, -60, "revoke", "failed", "HTTP 503 from the game"),
  row(3, 60, "revoke", "done"),
  row(4, -5, "negative-balance", "recorded"),
  row(5, -1, "write-off", "recorded"),
  row(6, -60, "revoke", "failed", NO_REVOKE_ENDPOINT),
  row(7, 60, "revoke", "pending", "timed out after 10000 ms"),
  row(8, -60, "revoke", "failed", "connect ECONNREFUSED 10.0.0.7:443"),
];
const views = (): ReactNode[] => [
  h(TakeBackPreview, { preview }),
  h(TakeBackPreview, { preview: { lines: [], revokeEndpointSet: true } }),
  h(TakenBackList, { takeBacks: TAKE_BACKS }),
];

describe("what a refund takes back", () => {
  it("says what each line's rule will do, and that revoke calls fail without an endpoint", () => {
    expect(preview.lines.map((l) => [l.sku, l.held, l.units, l.rule])).toEqual([
      ["gems-60", 60, 60, "revoke"],
      ["stamina-5", 5, 5, "negative-balance"],
      ["skin-1", 1, 1, "write-off"],
      ["sword-2", 0, 0, "revoke"],
      ["pet-1", 1, 1, null],
    ]);
    const words = text(render("en", h(TakeBackPreview, { preview })));
    for (const phrase of ["What a refund takes back", "asks the game to take back 60", "records a debt of 5 against the player", "writes off 1 — the player keeps it", "nothing left to take back"]) {
      expect(words).toContain(phrase);
    }
    expect(render("en", h(TakeBackPreview, { preview }))).toContain("records a debt of 5 stamina-5 against the player");
    expect(words).toContain("confirming the refund will be refused");
    expect(words).toContain("no revoke endpoint");
    expect(text(render("en", h(TakeBackPreview, { preview: { ...preview, revokeEndpointSet: true } })))).not.toContain("no revoke endpoint");
  });

  it("has no English outside data in Chinese", () => {
    const english = views().flatMap((node) => text(render("zh", node)).match(/[A-Za-z]{2,}/g) ?? []);
    expect(english).toEqual([]);
    const all = views().map((node) => text(render("zh", node))).join(" ");
    for (const phrase of ["退款将收回什么", "请求游戏收回 60", "核销 1，玩家保留", "本产品未配置收回接口", "已归还：游戏已确认", "正在收回：游戏尚未确认", "已尝试 2 次", "货币", "体力", "外观"]) {
      expect(all).toContain(phrase);
    }
  });

  // Issue 29, item 10: "−20 taken back … failed" and "taken back" beside "the player keeps it".
  it("says what each take-back did, never taken back for a failed call or a write-off", () => {
    const rowText = (locale: Locale, id: number) => {
      const html = render(locale, h(TakenBackList, { takeBacks: TAKE_BACKS }));
      const row = new RegExp(`<tr[^>]*data-testid="taken-back-${id}"[^>]*>(.*?)</tr>`, "s").exec(html)?.[1] ?? "";
      return text(row);
    };
    expect(rowText("en", 2)).toContain("Not taken back: the call to the game failed, the player still has it");
    expect(rowText("en", 5)).toContain("Written off: the player keeps it");
    expect(rowText("en", 4)).toContain("Recorded as a debt: the player owes it");
    expect(rowText("en", 1)).toContain("Being taken back: the game has not confirmed yet");
    expect(rowText("en", 3)).toContain("Given back: the game confirmed");
    for (const id of [1, 2, 4, 5, 6, 8]) expect(rowText("en", id)).not.toMatch(/(?<!not )taken back(?!:)|(?<!Not )Taken back/);
    expect(rowText("zh", 2)).toContain("未收回：调用游戏失败，玩家仍持有");
    expect(rowText("zh", 5)).toContain("已核销：玩家保留");

    // The line's own summary says the same, instead of "reversed".
    const line = (takeBacks: readonly OrderTakeBack[], reversed: number) =>
      text(render("en", h(LineProgressList, { lines: [{ sku: "gems-60", kind: "currency", expected: 60, granted: 60, reversed, pending: 0, grants: [] }], takeBacks })));
    expect(line([row(2, -60, "revoke", "failed")], 60)).toContain("not taken back 60 (the call failed)");
    expect(line([row(2, -60, "revoke", "failed")], 60)).not.toContain("reversed");
    expect(line([row(5, -60, "write-off", "recorded")], 60)).toContain("written off 60 (the player keeps it)");
    expect(line([row(5, -60, "write-off", "recorded")], 60)).not.toContain("taken back");
    expect(line([row(3, -60, "revoke", "done")], 60)).toContain("taken back 60");
    // Ledger rows from before take-backs were recorded keep their one word.
    expect(line([], 60)).toContain("reversed 60");
  });

  it("words a failed call as its case does, in the reader's language", () => {
    const list = (locale: Locale) => render(locale, h(TakenBackList, { takeBacks: TAKE_BACKS }));
    const english = list("en");
    for (const phrase of ["The revoke endpoint answered 503", "The revoke endpoint is not configured", "The grant endpoint did not answer within 10 s"]) {
      expect(english).toContain(phrase);
    }
    // A network failure is worded by its cause: the error code is English to everyone but a developer.
    expect(english).toContain("The revoke endpoint could not be reached: the connection was refused");
    const chinese = list("zh");
    for (const stored of [NO_REVOKE_ENDPOINT, "HTTP 503", "timed out"]) expect(chinese).not.toContain(stored);
    expect(chinese).not.toContain("ECONNREFUSED");
    for (const phrase of ["收回接口返回 503", "收回接口未配置", "发放接口10 秒内无响应", "收回接口无法连接：连接被拒绝"]) {
      expect(chinese).toContain(phrase);
    }
  });
});

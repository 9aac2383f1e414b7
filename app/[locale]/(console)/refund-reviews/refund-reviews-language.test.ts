// The refund review's words in both languages: every value Apple's fields can take has its meaning
// (a missing message fails the render), every status, the time left and why an answer was not sent
// read in Chinese without English outside data (the field names and values are Apple's contract,
// shown in monospace; the key's setting and field names are the operator's).
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/lib/i18n/locales";
import { describeAuthorizationProblem, type AuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { API_KEYS_ENV } from "@/lib/stores/apple/server-api-keys";
import { prefillAppleAnswer, type AppleConsumptionAnswer, type Bucket } from "@/lib/stores/reviews/apple-answer";
import { PAST_DEADLINE } from "@/lib/stores/reviews/model";
import { notSentReason } from "@/lib/stores/reviews/not-sent";
import { SHOWN_STATUSES, type ShownStatus } from "@/lib/stores/reviews/review-state";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import { AnswerTable } from "@/components/refund-reviews/answer-table";
import { ReviewProblemNotice } from "@/components/refund-reviews/review-last-error";
import { ReviewStatusBadge, TimeLeft } from "@/components/refund-reviews/review-status";

function render(locale: Locale, node: ReactNode): string {
  return renderToStaticMarkup(
    h(NextIntlClientProvider, {
      locale,
      messages: { en, zh }[locale],
      timeZone: "Asia/Shanghai",
      onError: (error) => {
        throw error;
      },
      children: node,
    }),
  );
}

/** Text outside tags and outside monospace cells (Apple's field names and raw values). */
function words(html: string): string {
  return html
    .replace(/<td class="[^"]*font-mono[^"]*">.*?<\/td>/gs, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#?\w+;/g, " ");
}

const base = prefillAppleAnswer({ lines: [], deliveryFailed: false, money: [], firstOrderAt: null, accountToken: null, requestedAt: new Date(0) }, false);
const upTo = (max: number) => Array.from({ length: max + 1 }, (_, i) => i);

/** One answer per value of every enumerated field (the rest as prefilled), and both booleans and tokens. */
const ANSWERS: AppleConsumptionAnswer[] = [
  ...upTo(5).map((v) => ({ ...base, deliveryStatus: v as AppleConsumptionAnswer["deliveryStatus"] })),
  ...upTo(3).map((v) => ({ ...base, consumptionStatus: v as AppleConsumptionAnswer["consumptionStatus"], refundPreference: v as AppleConsumptionAnswer["refundPreference"] })),
  ...upTo(2).map((v) => ({ ...base, platform: v as AppleConsumptionAnswer["platform"] })),
  ...upTo(4).map((v) => ({ ...base, userStatus: v as AppleConsumptionAnswer["userStatus"] })),
  ...upTo(7).map((v) => {
    const b = v as Bucket;
    return { ...base, playTime: b, accountTenure: b, lifetimeDollarsPurchased: b, lifetimeDollarsRefunded: b };
  }),
  { ...base, customerConsented: true, sampleContentProvided: true, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138" },
];

describe("refund review words", () => {
  it.each(["en", "zh"] as const)("every value of every field has its meaning in %s", (locale) => {
    for (const answer of ANSWERS) expect(() => render(locale, h(AnswerTable, { answer, caption: "c", testId: "t" }))).not.toThrow();
  });

  it("in Chinese, the answer's meanings, every status and the time left have no English outside data", () => {
    const html = [
      ...ANSWERS.map((answer) => render("zh", h(AnswerTable, { answer, caption: "答复", testId: "t" }))),
      ...SHOWN_STATUSES.map((status) => render("zh", h(ReviewStatusBadge, { status }))),
      render("zh", h(TimeLeft, { state: { awaiting: true, nearDeadline: false }, secondsLeft: 5_400 * 3 })),
      render("zh", h(TimeLeft, { state: { awaiting: true, nearDeadline: true }, secondsLeft: 1_800 })),
    ].join(" ");
    expect(html).toContain("已发放且正常可用");
    expect(html).toContain("剩余 30 分钟");
    expect(html).toContain("未发送");
    // Currency codes and "SKU"-like acronyms are kept in Chinese UIs; nothing else Latin may remain.
    expect(words(html).replace(/\b[A-Z]{2,5}\b/g, " ")).not.toMatch(/[A-Za-z]{2,}/);
  });

  describe("why an answer was not sent", () => {
    const KEY_PROBLEMS: readonly AuthorizationProblem[] = [
      { kind: "key-not-configured" },
      { kind: "key-invalid", field: "privateKeyPath" },
      { kind: "app-not-connected" },
      { kind: "key-unusable" },
    ];
    const stored = KEY_PROBLEMS.map(describeAuthorizationProblem);
    const said = (locale: Locale, error: string, status: ShownStatus = "not-sent", answerable = false) =>
      render(locale, h(ReviewProblemNotice, { problem: notSentReason(error) ?? { kind: "store-error", error }, state: { status, answerable }, keysEnv: API_KEYS_ENV }))
        .replace(/<[^>]*>/g, "")
        .replace(/&#x27;/g, "'");

    it("words the App Store key problems in English", () => {
      expect(stored.map((error) => said("en", error))).toEqual([
        `Not sent: this product has no App Store Server API key (${API_KEYS_ENV}). Set it for the worker and restart the worker.`,
        `Not sent: this product's App Store Server API key in ${API_KEYS_ENV} is invalid (privateKeyPath); the worker's log says why.`,
        "Not sent: this product is not connected to the App Store — set its bundle id in Settings → App Store.",
        `Not sent: this product's App Store Server API private key could not sign a token (${API_KEYS_ENV}).`,
      ]);
    });

    it("words them in Chinese, with no English outside the setting's and field's names", () => {
      const chinese = stored.map((error) => said("zh", error));
      expect(chinese[0]).toContain("未发送：本产品未配置苹果应用商店服务器 API 密钥");
      expect(chinese[2]).toContain("请在“设置 → 苹果应用商店”中填写套装 ID");
      for (const [i, text] of chinese.entries()) {
        expect(text).not.toContain(stored[i]);
        expect(text.split(API_KEYS_ENV).join(" ").split("privateKeyPath").join(" ").replace(/\b[A-Z]{2,5}\b/g, " ")).not.toMatch(/[A-Za-z]{2,}/);
      }
    });

    it("words a passed deadline in either language, not as the relay recorded it", () => {
      expect(said("en", PAST_DEADLINE)).toContain("Not sent: the store's deadline for an answer had passed.");
      expect(said("zh", PAST_DEADLINE)).toContain("未发送：商店规定的答复期限已过。");
      expect(said("zh", PAST_DEADLINE)).not.toContain(PAST_DEADLINE);
    });

    it("shows any other error as recorded, in either language", () => {
      expect(said("en", "HTTP 401: refused")).toContain("The store did not take it: HTTP 401: refused");
      expect(said("zh", "HTTP 401: refused")).toContain("商店未接受：HTTP 401: refused");
    });

    it("says what to do when the answer can be sent again, and that a retry is on its way when it is", () => {
      const reason = stored[0]!;
      expect(said("en", reason, "not-sent", true)).toContain("send the answer again below, before the deadline");
      expect(said("zh", reason, "not-sent", true)).toContain("请在截止前用下方表单重新发送答复");
      expect(said("en", reason, "not-sent", false)).not.toContain("send the answer again");
      expect(said("en", "HTTP 503: unavailable", "retrying")).toBe(
        "Not delivered yet: the store did not take the last attempt (HTTP 503: unavailable). The worker tries again before the deadline.",
      );
      expect(said("zh", "HTTP 503: unavailable", "retrying")).toContain("尚未送达");
    });
  });
});

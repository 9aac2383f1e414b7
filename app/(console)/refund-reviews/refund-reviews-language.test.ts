// The refund review's words in both languages: every value Apple's fields can take has its meaning
// (a missing message fails the render), every status and the time left read in Chinese without
// English outside data (the field names and values are Apple's contract, shown in monospace).
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/lib/i18n/locales";
import { prefillAppleAnswer, type AppleConsumptionAnswer, type Bucket } from "@/lib/stores/reviews/apple-answer";
import { REVIEW_STATUSES } from "@/lib/stores/reviews/model";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import { AnswerTable } from "@/components/refund-reviews/answer-table";
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
      ...REVIEW_STATUSES.map((status) => render("zh", h(ReviewStatusBadge, { status }))),
      render("zh", h(TimeLeft, { status: "open", secondsLeft: 5_400 })),
      render("zh", h(TimeLeft, { status: "open", secondsLeft: -120 })),
    ].join(" ");
    expect(html).toContain("已发放且正常可用");
    expect(html).toContain("已超时 2 分钟");
    // Currency codes and "SKU"-like acronyms are kept in Chinese UIs; nothing else Latin may remain.
    expect(words(html).replace(/\b[A-Z]{2,5}\b/g, " ")).not.toMatch(/[A-Za-z]{2,}/);
  });
});

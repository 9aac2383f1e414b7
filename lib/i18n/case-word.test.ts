import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

// Issue 29, item 15: a case (an order_exceptions row someone works) has one name per language — "case"
// and 工单 — in every message, never "exception" or 异常 beside it.

function values(messages: unknown): string[] {
  if (typeof messages === "string") return [messages];
  return typeof messages === "object" && messages !== null ? Object.values(messages).flatMap(values) : [];
}

describe("the word for a case", () => {
  it("is 'case' in English and 工单 in Chinese, everywhere", () => {
    expect(values(en).filter((text) => /\bexceptions?\b/i.test(text))).toEqual([]);
    expect(values(zh).filter((text) => text.includes("异常"))).toEqual([]);
    expect(values(en).some((text) => /\bcases?\b/i.test(text))).toBe(true);
    expect(values(zh).some((text) => text.includes("工单"))).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { ORDER_EVENTS, ORDER_STATES } from "@/lib/orders/machine";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe("UI messages", () => {
  it("English and Chinese have exactly the same keys", () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
  });

  it("label every state and every event in both languages", () => {
    for (const messages of [en, zh]) {
      expect(Object.keys(messages.state).sort()).toEqual([...ORDER_STATES].sort());
      expect(Object.keys(messages.event).sort()).toEqual([...ORDER_EVENTS].sort());
    }
  });

  it("has no empty message", () => {
    for (const messages of [en, zh]) {
      const values = keys(messages).map((path) => path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], messages));
      expect(values.filter((v) => typeof v !== "string" || v.trim() === "")).toEqual([]);
    }
  });
});

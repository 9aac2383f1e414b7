// The case SLA form lists every kind of case from the model (lib/orders/types.ts EXCEPTION_KINDS),
// each labelled in the reader's language and showing its stored SLA: a kind added to the model
// without its label, or left out of the form, fails here.
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { CaseSlaForm } from "@/components/settings/case-sla-form";
import { DEFAULT_CASE_SLA } from "@/lib/cases/model";
import type { Locale } from "@/lib/i18n/locales";
import { EXCEPTION_KINDS } from "@/lib/orders/types";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

// Only its presence as an import matters here: nothing is submitted.
vi.mock("./actions/update-case-sla", () => ({ updateCaseSla: vi.fn() }));

function render(locale: Locale): string {
  return renderToStaticMarkup(
    h(NextIntlClientProvider, {
      locale,
      messages: { en, zh }[locale],
      timeZone: "Asia/Shanghai",
      // A missing label is a failure, not the key printed in its place.
      onError: (error) => {
        throw error;
      },
      children: h(CaseSlaForm, { tenant: "xiaoxiao", updatedAt: "2026-12-04T10:00:00.000Z", slaSeconds: DEFAULT_CASE_SLA }),
    }),
  );
}

/** The hours shown for a kind: its number input's value, with the unit select set to hours. */
function shown(html: string, kind: string): { value: string | undefined; unit: string | undefined } {
  const value = new RegExp(`name="sla-${kind}\\.value"[^>]*value="(\\d+)"|value="(\\d+)"[^>]*name="sla-${kind}\\.value"`).exec(html);
  const select = new RegExp(`<select[^>]*name="sla-${kind}\\.unit"[^>]*>(.*?)</select>`, "s").exec(html)?.[1] ?? "";
  return { value: value?.[1] ?? value?.[2], unit: /<option[^>]*value="(\w+)"[^>]*selected/.exec(select)?.[1] };
}

describe("case SLA form", () => {
  it("has a field for every kind of case, take-back-failed among them, at its default of 4 hours", () => {
    const html = render("en");
    for (const kind of EXCEPTION_KINDS) expect(html, kind).toContain(`name="sla-${kind}.value"`);
    expect(shown(html, "take-back-failed")).toEqual({ value: "4", unit: "hours" });
    expect(shown(html, "delivery-failed")).toEqual({ value: "1", unit: "hours" });
  });

  it("labels the new kind in both languages", () => {
    expect(render("en")).toContain("Take-back failed");
    expect(render("zh")).toContain("收回或退还失败");
  });
});

import { IntlMessageFormat } from "intl-messageformat";
import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/lib/errors";
import type { Problem, ProblemKind } from "@/lib/problems";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import { describeProblem, type Translate } from "./describe-problem";
import { LOCALES, type Locale } from "./locales";

// Every problem kind and every error code has words in both catalogues, and every message of both
// catalogues is valid ICU. One example per kind, typed as a Record over the kinds: a new kind
// without an example does not compile.

const refusal: Problem = { kind: "amount-mismatch", paid: 3_00, expected: 30_00, currency: "CNY" };

const EXAMPLES: { readonly [K in ProblemKind]: Extract<Problem, { kind: K }> } = {
  "terminal-state": { kind: "terminal-state", state: "closed", event: "pay" },
  "illegal-event": { kind: "illegal-event", state: "delivered", event: "close", from: ["created", "paid"] },
  "stale-state": { kind: "stale-state", expected: "created", actual: "paid" },
  "stale-version": { kind: "stale-version", expected: 1, actual: 2 },
  "amount-missing": { kind: "amount-missing" },
  "amount-mismatch": { kind: "amount-mismatch", paid: 3_00, expected: 30_00, currency: "CNY" },
  "lines-pending": { kind: "lines-pending", lines: [{ sku: "gems-60", granted: 20, expected: 60 }] },
  "no-refund-rule": { kind: "no-refund-rule", lines: [{ sku: "pet-1", kind: "companion" }] },
  "over-delivery": { kind: "over-delivery", sku: "gems-60", quantity: 60, granted: 59, requested: 2 },
  "grant-not-allowed": { kind: "grant-not-allowed", state: "refunded" },
  "unknown-sku": { kind: "unknown-sku", sku: "gems-9" },
  "invalid-quantity": { kind: "invalid-quantity" },
  "reserved-grant-id": { kind: "reserved-grant-id", prefix: "refund:" },
  "already-delivered": { kind: "already-delivered" },
  "not-paid": { kind: "not-paid" },
  "grants-closed": { kind: "grants-closed", state: "closed" },
  "repair-running": { kind: "repair-running" },
  "repair-step-refused": { kind: "repair-step-refused", step: "grant", sku: "gems-60", refusal: { kind: "grant-not-allowed", state: "refunding" } },
  "order-not-found": { kind: "order-not-found", orderNo: "XX1" },
  "not-found": { kind: "not-found" },
  "event-not-for-role": { kind: "event-not-for-role", event: "pay", roles: ["ops", "manager"] },
  "email-taken": { kind: "email-taken", email: "a@example.com" },
  "last-admin": { kind: "last-admin", email: "a@example.com" },
  "cannot-disable-self": { kind: "cannot-disable-self" },
  "unknown-tenants": { kind: "unknown-tenants", tenants: ["x", "y"] },
  "tenants-beyond-scope": { kind: "tenants-beyond-scope", tenants: ["x"] },
  "role-beyond-own": { kind: "role-beyond-own", role: "admin", own: "manager" },
  "settings-stale": { kind: "settings-stale", tenant: "xiaoxiao", by: "ops@example.com", at: "2026-12-01 10:00 UTC" },
  "own-refund-request": { kind: "own-refund-request" },
  "approval-decided": { kind: "approval-decided", status: "rejected" },
  "batch-empty": { kind: "batch-empty" },
  "batch-too-large": { kind: "batch-too-large", max: 5000 },
  "resend-too-large": { kind: "resend-too-large", max: 5000 },
  "key-name-taken": { kind: "key-name-taken", tenant: "xiaoxiao", name: "alipay" },
  "view-name-taken": { kind: "view-name-taken", name: "Stuck paid" },
  "view-not-yours": { kind: "view-not-yours", creator: "ops@example.com" },
  "api-key-required": { kind: "api-key-required" },
  "sign-in-invalid": { kind: "sign-in-invalid" },
  "sign-in-locked": { kind: "sign-in-locked", minutes: 15 },
  "invalid-json": { kind: "invalid-json" },
  "store-signature-invalid": { kind: "store-signature-invalid", reason: "untrusted-root" },
  "store-token-invalid": { kind: "store-token-invalid", reason: "audience" },
  "store-app-mismatch": { kind: "store-app-mismatch", field: "bundleId", expected: "com.example.game", actual: "com.other.app" },
  "store-not-connected": { kind: "store-not-connected", store: "appstore" },
  "order-differs": { kind: "order-differs", orderNo: "XX1", fields: ["amount", "lines"] },
  "refund-settled": { kind: "refund-settled", refundId: "rf-1", status: "confirmed", event: "fail" },
  "refund-exceeds-payment": { kind: "refund-exceeds-payment", requested: 20_00, refundable: 10_00, currency: "CNY" },
  "refund-not-found": { kind: "refund-not-found", refundId: "rf-1" },
  "case-taken": { kind: "case-taken", owner: "ops@example.com" },
  "case-closed": { kind: "case-closed", status: "resolved", by: "ops@example.com" },
  "case-awaiting-refund": { kind: "case-awaiting-refund", refundId: "rf-1" },
  "case-refund-not-sent": { kind: "case-refund-not-sent", refundId: "rf-1", why: "no-webhook" },
  "case-refund-sending": { kind: "case-refund-sending", refundId: "rf-1" },
  "refund-not-actionable": { kind: "refund-not-actionable", refundId: "rf-1" },
  "refund-needs-webhook": { kind: "refund-needs-webhook", refundId: "rf-1" },
  "cases-not-for-role": { kind: "cases-not-for-role", roles: ["ops", "manager"] },
  "resolution-not-offered": { kind: "resolution-not-offered", resolution: "honour" },
  "dismiss-not-for-role": { kind: "dismiss-not-for-role", roles: ["manager"] },
  "assignee-not-eligible": { kind: "assignee-not-eligible", email: "agent@example.com" },
  required: { kind: "required" },
  "too-short": { kind: "too-short", min: 5 },
  "too-long": { kind: "too-long", max: 500 },
  "too-small": { kind: "too-small", min: 1 },
  "too-large": { kind: "too-large", max: 100 },
  "not-a-number": { kind: "not-a-number" },
  "not-whole": { kind: "not-whole" },
  "invalid-email": { kind: "invalid-email" },
  "invalid-choice": { kind: "invalid-choice", options: ["a", "b"] },
  "invalid-format": { kind: "invalid-format" },
  "endpoint-url": { kind: "endpoint-url" },
  "webhook-url": { kind: "webhook-url" },
  "invalid-date": { kind: "invalid-date" },
  "date-range-reversed": { kind: "date-range-reversed" },
  "money-format": { kind: "money-format" },
  "money-too-large": { kind: "money-too-large", max: 100_000_000, currency: null },
  "duration-too-short": { kind: "duration-too-short", seconds: 60 },
  "duration-too-long": { kind: "duration-too-long", seconds: 7 * 86_400 },
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

const MESSAGES = { en, zh } as const;

/** A translator that fails the test on a missing key or a message that does not format. */
function strict(locale: Locale): Translate {
  return createTranslator({
    locale,
    messages: MESSAGES[locale],
    onError: (error) => {
      throw error;
    },
  }) as unknown as Translate;
}

function leaves(value: unknown, prefix = ""): [string, string][] {
  if (typeof value === "string") return [[prefix, value]];
  return Object.entries(value as object).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("the message catalogues", () => {
  it.each([...LOCALES])("%s: words every problem kind, with its facts", (locale) => {
    const t = strict(locale);
    for (const problem of Object.values(EXAMPLES)) {
      const text = describeProblem(problem, t, locale);
      expect(text.length, problem.kind).toBeGreaterThan(1);
      expect(text, problem.kind).not.toMatch(/[{}]|problem\./);
    }
    expect(describeProblem(refusal, t, locale)).toContain(locale === "en" ? "CN¥3.00" : "¥3.00");
  });

  it.each([...LOCALES])("%s: has a general message for every error code", (locale) => {
    const t = strict(locale);
    for (const code of ERROR_CODES) expect(t(`errors.${code}`, { reference: "ref-1" }).length, code).toBeGreaterThan(1);
  });

  it("Chinese words problems in Chinese: no English word outside the facts", () => {
    const t = strict("zh");
    for (const problem of Object.values(EXAMPLES)) {
      // Facts (SKUs, ids, emails, tenant names, field names) are data; the rest must be Chinese.
      const data = JSON.stringify(problem).match(/"[^"]*"/g)!.map((s) => s.slice(1, -1));
      let text = describeProblem(problem, t, "zh");
      for (const d of data.sort((a, b) => b.length - a.length)) if (d.length > 1) text = text.replaceAll(d, "");
      expect(text.replace(/Authorization: Bearer <key>|API|JSON|UTC|CN¥|¥/g, ""), problem.kind).not.toMatch(/[A-Za-z]{2,}/);
    }
  });

  it("every message in both catalogues is valid ICU", () => {
    for (const locale of LOCALES) {
      for (const [key, message] of leaves(MESSAGES[locale])) {
        expect(() => new IntlMessageFormat(message, locale), `${locale} ${key}`).not.toThrow();
      }
    }
  });
});

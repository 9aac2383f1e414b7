// A problem (lib/problems.ts) in words, in one language: the catalogue's `problem.<kind>` message
// with the facts formatted for that language (states and events by their names in the UI language,
// money, lists, durations). The same function serves the console (its language, on the server or in
// the browser) and the API and logs (English). Pure.
import { bestUnit, formatMoney } from "@/lib/format";
import { assertNever } from "@/lib/orders/machine";
import type { Problem } from "@/lib/problems";
import type { Locale } from "./locales";

/** A next-intl translator over the whole catalogue (useTranslations() or createTranslator()). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

const INTL_LOCALE: Readonly<Record<Locale, string>> = { en: "en-US", zh: "zh-CN" };

export function describeProblem(problem: Problem, t: Translate, locale: Locale): string {
  const intl = INTL_LOCALE[locale];
  // English keeps the machine's own names (what integrators and engineers see in the API and the
  // logs); other languages use the console's labels.
  const state = (s: string) => (locale === "en" ? s : t(`state.${s}`));
  const event = (e: string) => (locale === "en" ? e : t(`event.${e}`));
  const role = (r: string) => (locale === "en" ? r : t(`roles.${r}`));
  const and = (items: readonly string[]) => new Intl.ListFormat(intl, { type: "conjunction" }).format(items);
  const or = (items: readonly string[]) => new Intl.ListFormat(intl, { type: "disjunction" }).format(items);
  const money = (minor: number, currency: string) => formatMoney(minor, currency, intl);
  const duration = (seconds: number) => {
    const { value, unit } = bestUnit(seconds);
    return t(`settings.durations.${unit}`, { n: value });
  };
  const say = (values: Record<string, string | number> = {}) => t(`problem.${problem.kind}`, values);

  switch (problem.kind) {
    case "terminal-state":
      return say({ state: state(problem.state), event: event(problem.event) });
    case "illegal-event":
      return say({ state: state(problem.state), event: event(problem.event), from: or(problem.from.map(state)) });
    case "stale-state":
      return say({ expected: state(problem.expected), actual: state(problem.actual) });
    case "stale-version":
      return say({ expected: problem.expected, actual: problem.actual });
    case "amount-mismatch":
      return say({ paid: money(problem.paid, problem.currency), expected: money(problem.expected, problem.currency) });
    case "lines-pending":
      return say({ lines: and(problem.lines.map((l) => t("problem.line-progress", { sku: l.sku, granted: l.granted, expected: l.expected }))) });
    case "no-refund-rule":
      return say({ lines: and(problem.lines.map((l) => `${l.sku} (${l.kind})`)) });
    case "over-delivery":
      return say({
        sku: problem.sku,
        quantity: problem.quantity,
        granted: problem.granted,
        requested: problem.requested,
        room: Math.max(0, problem.quantity - problem.granted),
      });
    case "grant-not-allowed":
    case "grants-closed":
      return say({ state: state(problem.state) });
    case "unknown-sku":
      return say({ sku: problem.sku });
    case "reserved-grant-id":
      return say({ prefix: problem.prefix });
    case "repair-step-refused":
      return say({
        step: problem.step === "grant" ? t("problem.repair-grant-step", { sku: problem.sku ?? "" }) : event(problem.step),
        why: describeProblem(problem.refusal, t, locale),
      });
    case "order-not-found":
      return say({ orderNo: problem.orderNo });
    case "event-not-for-role":
      return say({ event: event(problem.event), roles: or(problem.roles.map((r) => t(`roles.${r}`))) });
    case "email-taken":
    case "last-admin":
      return say({ email: problem.email });
    case "unknown-tenants":
    case "tenants-beyond-scope":
      return say({ tenants: and(problem.tenants), count: problem.tenants.length });
    case "role-beyond-own":
      return say({ role: role(problem.role), own: role(problem.own) });
    case "settings-stale":
      return problem.by && problem.at
        ? t("problem.settings-stale-by", { tenant: problem.tenant, by: problem.by, at: problem.at })
        : say({ tenant: problem.tenant });
    case "approval-decided":
      return say({ status: t(`problem.approval-status.${problem.status === "approved" ? "approved" : "rejected"}`) });
    case "batch-too-large":
    case "resend-too-large":
      return say({ max: problem.max });
    case "sign-in-locked":
      return say({ minutes: problem.minutes });
    case "key-name-taken":
      return say({ tenant: problem.tenant, name: problem.name });
    case "view-name-taken":
      return say({ name: problem.name });
    case "view-not-yours":
      return say({ creator: problem.creator });
    case "order-differs":
      return say({ orderNo: problem.orderNo, fields: and(problem.fields) });
    case "refund-settled":
      return say({
        refundId: problem.refundId,
        status: locale === "en" ? problem.status : t(`problem.refund-status.${problem.status}`),
        event: locale === "en" ? problem.event : t(`problem.refund-event.${problem.event}`),
      });
    case "refund-exceeds-payment":
      return say({ requested: money(problem.requested, problem.currency), refundable: money(problem.refundable, problem.currency) });
    case "refund-not-found":
    case "case-awaiting-refund":
    case "case-refund-sending":
    case "refund-not-actionable":
    case "refund-needs-webhook":
      return say({ refundId: problem.refundId });
    case "case-refund-not-sent":
      return say({ refundId: problem.refundId, why: t(`problem.refund-not-sent-why.${problem.why}`) });
    case "cases-not-for-role":
      return say({ roles: or(problem.roles.map((r) => t(`roles.${r}`))) });
    case "case-taken":
      return say({ owner: problem.owner });
    case "case-closed":
      return problem.by
        ? t("problem.case-closed-by", { status: problem.status, by: problem.by })
        : say({ status: problem.status });
    case "resolution-not-offered":
      return say({ resolution: locale === "en" ? problem.resolution : t(`problem.resolution-names.${problem.resolution}`) });
    case "dismiss-not-for-role":
      return say({ roles: or(problem.roles.map((r) => t(`roles.${r}`))) });
    case "assignee-not-eligible":
      return say({ email: problem.email });
    case "store-signature-invalid":
    case "store-token-invalid":
      return say({ reason: problem.reason });
    case "store-app-mismatch":
      return say({ field: problem.field, expected: problem.expected, actual: problem.actual });
    case "store-not-connected":
      return say({ store: problem.store });
    case "too-short":
    case "too-small":
      return say({ min: problem.min });
    case "too-long":
    case "too-large":
    case "password-too-long":
    case "too-many-canned-reasons":
      return say({ max: problem.max });
    case "canned-reason-length":
      return say({ line: problem.line, min: problem.min, max: problem.max });
    case "invalid-choice":
      return say({ options: or(problem.options) });
    case "money-too-large":
      return say({
        max: problem.currency ? money(problem.max, problem.currency) : new Intl.NumberFormat(intl, { minimumFractionDigits: 2 }).format(problem.max / 100),
      });
    case "duration-too-short":
    case "duration-too-long":
      return say({ duration: duration(problem.seconds) });
    case "channel-key-required":
      return say({ event: event(problem.event) });
    case "amount-missing":
    case "invalid-quantity":
    case "already-delivered":
    case "not-paid":
    case "repair-running":
    case "not-found":
    case "cannot-disable-self":
    case "own-refund-request":
    case "batch-empty":
    case "api-key-required":
    case "sign-in-invalid":
    case "invalid-json":
    case "required":
    case "not-a-number":
    case "not-whole":
    case "invalid-email":
    case "invalid-format":
    case "endpoint-url":
    case "webhook-url":
    case "invalid-date":
    case "date-range-reversed":
    case "money-format":
    case "amount-required":
    case "key-name-format":
    case "form-version-missing":
    case "page-position-unknown":
    case "control-characters":
    case "invalid":
      return say();
    default:
      return assertNever(problem);
  }
}

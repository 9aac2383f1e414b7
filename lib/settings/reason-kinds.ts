// The case actions that take a reason, as canned-reason lists in a product's settings (issue 29:
// "case dialogs offer no canned reasons"), beside the order events' lists. Pure.
export const CASE_REASON_KINDS = ["case-resolve", "case-dismiss", "case-assign", "case-refund-told"] as const;
export type CaseReasonKind = (typeof CASE_REASON_KINDS)[number];

/** A product's canned reasons for case actions (canned-reasons.ts holds them with the events'). */
export type CaseCannedReasons = Readonly<Partial<Record<CaseReasonKind, readonly string[]>>>;

export function isCaseReasonKind(value: string): value is CaseReasonKind {
  return (CASE_REASON_KINDS as readonly string[]).includes(value);
}

/** The case lists out of a product's canned reasons. */
export function caseCannedReasons(all: Readonly<Partial<Record<string, readonly string[]>>>): CaseCannedReasons {
  return Object.fromEntries(CASE_REASON_KINDS.flatMap((kind) => (all[kind]?.length ? [[kind, all[kind]]] : [])));
}

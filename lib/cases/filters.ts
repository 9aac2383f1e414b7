// The case queue's filters and its page's shape: plain data the browser holds too (the live
// queue polls it), apart from the query that fills it (queries/case-queue.ts).
import type { Role } from "@/lib/auth/permissions";
import type { CaseView } from "./view";

export const CASE_FILTERS = ["all", "mine", "unassigned", "overdue"] as const;
export type CaseFilter = (typeof CASE_FILTERS)[number];

export function isCaseFilter(value: unknown): value is CaseFilter {
  return typeof value === "string" && (CASE_FILTERS as readonly string[]).includes(value);
}

export interface CappedCount {
  /** Exact, unless `more`: then there are more than this many. */
  readonly total: number;
  readonly more: boolean;
}

export interface CaseQueue {
  readonly filter: CaseFilter;
  readonly counts: Readonly<Record<CaseFilter, CappedCount>>;
  /** Most urgent first, at most the limit. */
  readonly items: readonly CaseView[];
  /**
   * Whether the viewer works cases (the permission table's cases:work), and who does: a viewer who
   * does not is told so in words, rather than shown empty actions (issue 29).
   */
  readonly viewerWorks: boolean;
  readonly workedBy: readonly Role[];
}

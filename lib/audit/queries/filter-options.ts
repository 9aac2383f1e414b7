// What the audit explorer's filter form offers, apart from the schemas that read it
// (./filters.ts): the form renders in the browser, where a module that builds zod objects at load
// cannot run (the CSP forbids eval, which zod probes for). Pure constants.
import { ORDER_EVENTS, type OrderEvent } from "@/lib/orders/machine";

export const REASON_FILTERS = ["with", "without"] as const;

export const OFFERED_ORDER_EVENTS: readonly OrderEvent[] = ORDER_EVENTS;

/** Longest note text searched for; a note holds at most 2,000 characters. */
export const MAX_NOTE_SEARCH = 200;

/** The per-actor summary reads every fact in its range: it gets a default and a cap. */
export const SUMMARY_DEFAULT_DAYS = 7;
export const SUMMARY_MAX_DAYS = 31;

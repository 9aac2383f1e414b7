// What a refund does to the goods an order granted, and what a store's reversal of its refund gives
// back (issue 16, item 4). Pure: the rules a tenant picks per kind of line, how many units a refund
// measure takes from each line, and the ledger moves that follow.
import { z } from "zod";

export const LINE_KINDS = ["currency", "stamina", "cosmetic", "item"] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export function isLineKind(value: string): value is LineKind {
  return (LINE_KINDS as readonly string[]).includes(value);
}

/**
 * `revoke`: the worker asks the game (the tenant's revoke endpoint) to take the goods back, with a
 * stable revocation id. `negative-balance`: the player's balance of that currency goes into debt by
 * what was spent. `write-off`: nothing is taken from the player; the loss is recorded.
 */
export const TAKE_BACK_RULES = ["revoke", "negative-balance", "write-off"] as const;
export type TakeBackRule = (typeof TAKE_BACK_RULES)[number];
export type TakeBackRules = Readonly<Record<LineKind, TakeBackRule>>;

/**
 * take_backs.status (the migration's CHECK says the same). pending: a call to the game is owed;
 * done: the game confirmed it; failed: it could not be made; recorded: nothing to call (a debt, a write-off).
 */
export const TAKE_BACK_STATUSES = ["pending", "done", "failed", "recorded"] as const;
export type TakeBackStatus = (typeof TAKE_BACK_STATUSES)[number];

/** A take_backs row's last_error when the tenant has not set the endpoint its call needs (no call is made). */
export const NO_REVOKE_ENDPOINT = "no revoke endpoint configured";
export const NO_GRANT_ENDPOINT = "no grant endpoint configured";

/** Seed 000's rule: consumables are taken back; a cosmetic or an item cannot be, so it is written off. */
export const DEFAULT_TAKE_BACK_RULES: TakeBackRules = { currency: "revoke", stamina: "revoke", cosmetic: "write-off", item: "write-off" };

/** Only a balance can go below zero: a cosmetic or an item has no balance to owe. */
export const RULES_FOR_KIND: Readonly<Record<LineKind, readonly TakeBackRule[]>> = {
  currency: TAKE_BACK_RULES,
  stamina: TAKE_BACK_RULES,
  cosmetic: ["revoke", "write-off"],
  item: ["revoke", "write-off"],
};

export function ruleAllowed(kind: LineKind, rule: TakeBackRule): boolean {
  return RULES_FOR_KIND[kind].includes(rule);
}

/** tenant_settings.take_back_rules as stored; a kind missing from an older row takes its default. */
export const storedTakeBackRules = z
  .record(z.string(), z.enum(TAKE_BACK_RULES))
  .transform((stored): TakeBackRules => ({ ...DEFAULT_TAKE_BACK_RULES, ...Object.fromEntries(LINE_KINDS.flatMap((k) => (stored[k] ? [[k, stored[k]]] : []))) }));

/**
 * How much of an order a refund covers. `full`: everything each line still holds. `units`: that
 * many units of each line (Google's voidedQuantity of a quantity-based partial refund). `share`:
 * that share of each line, in milliunits of a percent (Apple's revocationPercentage of a prorated
 * refund: 33333 is a third), rounded to whole units.
 */
export type RefundMeasure =
  | { readonly kind: "full" }
  | { readonly kind: "units"; readonly units: number }
  | { readonly kind: "share"; readonly milliPercent: number };

export const FULL_REFUND: RefundMeasure = { kind: "full" };

/** One line as the ledger holds it: ordered, delivered and taken back so far (net of restorations). */
export interface HeldLine {
  readonly sku: string;
  readonly kind: string;
  readonly expected: number;
  readonly granted: number;
  readonly reversed: number;
}

/** A grants-ledger row a refund or its reversal writes, with the rule it follows. Negative: taken back. */
export interface LedgerMove {
  readonly sku: string;
  readonly kind: LineKind;
  readonly quantity: number;
  readonly rule: TakeBackRule;
}

export function held(line: HeldLine): number {
  return Math.max(0, line.granted - line.reversed);
}

/** How many units `measure` takes from a line: never more than the line still holds. */
export function unitsTaken(line: HeldLine, measure: RefundMeasure): number {
  const holding = held(line);
  switch (measure.kind) {
    case "full":
      return holding;
    case "units":
      return Math.min(holding, Math.max(0, Math.floor(measure.units)));
    case "share":
      return Math.min(holding, Math.round((line.expected * Math.min(100_000, Math.max(0, measure.milliPercent))) / 100_000));
  }
}

/** Whether `measure` leaves nothing on any line: then it is a full refund of the order. */
export function takesEverything(lines: readonly HeldLine[], measure: RefundMeasure): boolean {
  return lines.every((line) => unitsTaken(line, measure) === held(line));
}

/**
 * The take-back a refund writes: one move per line that still holds something, under the tenant's
 * rule for its kind. A line of a kind no rule covers cannot be taken back: it is reported, and the
 * caller refuses the refund rather than guess.
 */
export function planTakeBack(
  lines: readonly HeldLine[],
  rules: TakeBackRules,
  measure: RefundMeasure = FULL_REFUND,
): { moves: LedgerMove[]; unknownKinds: { sku: string; kind: string }[] } {
  const moves: LedgerMove[] = [];
  const unknownKinds: { sku: string; kind: string }[] = [];
  for (const line of lines) {
    const units = unitsTaken(line, measure);
    if (units <= 0) continue;
    if (!isLineKind(line.kind)) unknownKinds.push({ sku: line.sku, kind: line.kind });
    else moves.push({ sku: line.sku, kind: line.kind, quantity: -units, rule: rules[line.kind] });
  }
  return { moves, unknownKinds };
}

/**
 * What a store's reversal of its refund gives back: every unit taken back, under the rule it was
 * taken by (`takenBy`, per sku, from take_backs) — a revoked line is granted again, a debt is
 * cancelled, a write-off is undone. A line taken back before rules were recorded follows today's.
 */
export function planRestore(lines: readonly HeldLine[], takenBy: Readonly<Record<string, TakeBackRule>>, rules: TakeBackRules): LedgerMove[] {
  return lines.flatMap((line) => {
    if (line.reversed <= 0 || !isLineKind(line.kind)) return [];
    return [{ sku: line.sku, kind: line.kind, quantity: line.reversed, rule: takenBy[line.sku] ?? rules[line.kind] }];
  });
}

/**
 * What a take_backs row did, said once so that no word contradicts it: a revoke is taken back only
 * when the game confirmed it (pending: being taken back; failed: not taken back, the player still
 * has it), a debt is owed, a write-off leaves the goods with the player. Positive units give back
 * what a refund took (a store reversed its refund), under the same rule.
 */
export type TakeBackOutcome =
  | "taking-back"
  | "taken-back"
  | "not-taken-back"
  | "debt-recorded"
  | "written-off"
  | "giving-back"
  | "given-back"
  | "not-given-back"
  | "debt-cancelled"
  | "write-off-undone";

/** The order a line's summary names them in: what the player lost first, then what came back. */
const TAKE_BACK_OUTCOMES: readonly TakeBackOutcome[] = [
  "taken-back",
  "taking-back",
  "not-taken-back",
  "debt-recorded",
  "written-off",
  "given-back",
  "giving-back",
  "not-given-back",
  "debt-cancelled",
  "write-off-undone",
];

export function takeBackOutcome(row: { readonly units: number; readonly rule: TakeBackRule; readonly status: TakeBackStatus }): TakeBackOutcome {
  const taking = row.units < 0;
  switch (row.rule) {
    case "negative-balance":
      return taking ? "debt-recorded" : "debt-cancelled";
    case "write-off":
      return taking ? "written-off" : "write-off-undone";
    case "revoke":
      switch (row.status) {
        case "pending":
          return taking ? "taking-back" : "giving-back";
        case "failed":
          return taking ? "not-taken-back" : "not-given-back";
        case "done":
        case "recorded":
          return taking ? "taken-back" : "given-back";
      }
  }
}

/**
 * One line's take-backs summed per outcome (units as positive numbers), in a stable order, and
 * what the grants ledger reversed beyond them (rows from before take-backs were recorded): the
 * line's "what happened to the goods", instead of one "reversed" that a failed call or a write-off
 * contradicts.
 */
export function lineTakeBackSummary(
  reversed: number,
  rows: readonly { readonly units: number; readonly rule: TakeBackRule; readonly status: TakeBackStatus }[],
): { outcomes: { outcome: TakeBackOutcome; units: number }[]; unexplained: number } {
  const totals = new Map<TakeBackOutcome, number>();
  let net = 0;
  for (const row of rows) {
    const outcome = takeBackOutcome(row);
    totals.set(outcome, (totals.get(outcome) ?? 0) + Math.abs(row.units));
    net -= row.units;
  }
  const outcomes = TAKE_BACK_OUTCOMES.flatMap((outcome) => (totals.has(outcome) ? [{ outcome, units: totals.get(outcome)! }] : []));
  return { outcomes, unexplained: Math.max(0, reversed - net) };
}

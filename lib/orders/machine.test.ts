import { describe, expect, it } from "vitest";
import {
  availableEvents,
  edgeFor,
  isOrderEvent,
  isOrderState,
  ORDER_EVENTS,
  ORDER_STATES,
  refusal,
  statesAccepting,
  TERMINAL_STATES,
  type OrderEvent,
  type OrderState,
} from "./machine";
import { describe as describeIn } from "@/lib/i18n/translator";

// DESIGN.md's state table, copied by hand, cell for cell. Deliberately NOT derived from
// TRANSITIONS: a test that reads the table it checks could never fail. A cell is "" when the event
// is illegal, "to" for an unguarded edge, "to ? guard" for a guarded one; "previous" is
// reject-refund's "state before refunding". The last column is issue 16's addition to the table: a
// store reversing its refund takes a refunded order back to where it was, its goods given back.
const COLUMNS = ["pay", "begin-delivery", "confirm-delivery", "request-refund", "confirm-refund", "reject-refund", "close", "reverse-refund"] as const;

const DESIGN_TABLE: ReadonlyArray<readonly [OrderState, readonly [string, string, string, string, string, string, string, string]]> = [
  //            pay                      begin-delivery  confirm-delivery                 request-refund  confirm-refund                   reject-refund  close     reverse-refund
  ["created",    ["paid ? amount-matches", "",             "",                              "",             "",                              "",            "closed", ""]],
  ["paid",       ["",                      "delivering",   "",                              "refunding",    "",                              "",            "closed", ""]],
  ["delivering", ["",                      "",             "delivered ? nothing-pending",   "refunding",    "",                              "",            "",       ""]],
  ["delivered",  ["",                      "",             "",                              "refunding",    "",                              "",            "",       ""]],
  ["refunding",  ["",                      "",             "",                              "",             "refunded ? grants-reversed",    "previous",    "",       ""]],
  ["refunded",   ["",                      "",             "",                              "",             "",                              "",            "",       "previous ? grants-restored"]],
  ["closed",     ["",                      "",             "",                              "",             "",                              "",            "",       ""]],
];

interface ExpectedCell {
  readonly state: OrderState;
  readonly event: OrderEvent;
  readonly edge: { to: string; guard?: string } | undefined;
}

const CELLS: ExpectedCell[] = DESIGN_TABLE.flatMap(([state, cells]) =>
  cells.map((cell, i): ExpectedCell => {
    const event = COLUMNS[i]!;
    if (cell === "") return { state, event, edge: undefined };
    const [to, guard] = cell.split(" ? ");
    return { state, event, edge: guard ? { to: to!, guard } : { to: to! } };
  }),
);

const legalEvents = (state: OrderState): OrderEvent[] => CELLS.filter((c) => c.state === state && c.edge).map((c) => c.event);

describe("the state table (DESIGN.md, every cell)", () => {
  it("the hand-copied table covers the 7 states x 8 events, in the code's order", () => {
    expect(DESIGN_TABLE.map(([s]) => s)).toEqual([...ORDER_STATES]);
    expect([...COLUMNS]).toEqual([...ORDER_EVENTS]);
    expect(CELLS).toHaveLength(56);
    expect(CELLS.filter((c) => c.edge)).toHaveLength(11);
  });

  it.each(CELLS.map((c) => [c.state, c.event, c.edge ? `${c.edge.to}${c.edge.guard ? ` ? ${c.edge.guard}` : ""}` : "illegal", c] as const))(
    "%s + %s -> %s",
    (_state, _event, _label, cell) => {
      // toStrictEqual: an edge without a guard must not carry `guard: undefined` either.
      expect(edgeFor(cell.state, cell.event)).toStrictEqual(cell.edge);
    },
  );

  it("refunded and closed are the terminal states: closed accepts no event, refunded only the store's reverse-refund", () => {
    expect([...TERMINAL_STATES].sort()).toEqual(["closed", "refunded"]);
    for (const event of ORDER_EVENTS) expect(edgeFor("closed", event)).toBeUndefined();
    expect(ORDER_EVENTS.filter((event) => edgeFor("refunded", event))).toEqual(["reverse-refund"]);
  });
});

describe("statesAccepting", () => {
  it.each([
    ["pay", ["created"]],
    ["begin-delivery", ["paid"]],
    ["confirm-delivery", ["delivering"]],
    ["request-refund", ["paid", "delivering", "delivered"]],
    ["confirm-refund", ["refunding"]],
    ["reject-refund", ["refunding"]],
    ["close", ["created", "paid"]],
    ["reverse-refund", ["refunded"]],
  ] as const)("%s is accepted from %j", (event, states) => {
    expect(statesAccepting(event)).toEqual(states);
  });
});

describe("refusal", () => {
  it.each([
    ["paid", "pay", ["created"], "pay is only possible from created, and the order is paid"],
    ["created", "request-refund", ["paid", "delivering", "delivered"], "request-refund is only possible from paid, delivering, or delivered, and the order is created"],
    ["delivering", "close", ["created", "paid"], "close is only possible from created or paid, and the order is delivering"],
    ["refunding", "begin-delivery", ["paid"], "begin-delivery is only possible from paid, and the order is refunding"],
  ] as const)("%s + %s: illegal, naming the states that would accept it", (state, event, from, english) => {
    expect(refusal(state, event)).toEqual({ kind: "illegal-event", state, event, from });
    expect(describeIn(refusal(state, event)!, "en")).toBe(english);
  });

  it.each(["refunded", "closed"] as const)("every event a %s order has no edge for is refused as a final state", (state) => {
    for (const event of ORDER_EVENTS.filter((e) => !edgeFor(state, e))) expect(refusal(state, event)).toEqual({ kind: "terminal-state", state, event });
  });

  it("is null exactly where the table has an edge, and never names the current state as a way out", () => {
    for (const cell of CELLS) {
      const r = refusal(cell.state, cell.event);
      expect(r === null).toBe(cell.edge !== undefined);
      if (r?.kind === "illegal-event") expect(r.from).not.toContain(cell.state);
    }
  });
});

describe("availableEvents", () => {
  it.each([...ORDER_STATES])("%s: every event in table order, allowed exactly where DESIGN.md has an edge", (state) => {
    const available = availableEvents(state);

    expect(available.map((a) => a.event)).toEqual([...ORDER_EVENTS]);
    expect(available.filter((a) => a.allowed).map((a) => a.event)).toEqual(legalEvents(state));
    for (const a of available) {
      const cell = CELLS.find((c) => c.state === state && c.event === a.event)!;
      if (a.allowed) {
        expect({ to: a.to, ...("guard" in a ? { guard: a.guard } : {}) }).toStrictEqual(cell.edge);
        expect(a).not.toHaveProperty("refusal");
      } else {
        expect(cell.edge).toBeUndefined();
        expect(a.refusal).toEqual(refusal(state, a.event));
      }
    }
  });

  it("allowed entries carry a guard key only when the edge has a guard", () => {
    expect(availableEvents("created")).toEqual(
      expect.arrayContaining([
        { event: "pay", allowed: true, to: "paid", guard: "amount-matches" },
        { event: "close", allowed: true, to: "closed" },
      ]),
    );
    const close = availableEvents("created").find((a) => a.event === "close");
    expect(close).not.toHaveProperty("guard");
    expect(availableEvents("refunding").find((a) => a.event === "reject-refund")).toStrictEqual({
      event: "reject-refund",
      allowed: true,
      to: "previous",
    });
  });

  it("closed refuses everything, each as a final state; refunded everything but the store's reverse-refund", () => {
    const asFinal = (state: OrderState, event: OrderEvent) => ({ event, allowed: false, refusal: { kind: "terminal-state", state, event } });
    expect(availableEvents("closed")).toEqual(ORDER_EVENTS.map((event) => asFinal("closed", event)));
    expect(availableEvents("refunded")).toEqual(
      ORDER_EVENTS.map((event) => (event === "reverse-refund" ? { event, allowed: true, to: "previous", guard: "grants-restored" } : asFinal("refunded", event))),
    );
  });
});

describe("isOrderState / isOrderEvent", () => {
  it("accept exactly the names, nothing else", () => {
    for (const s of ORDER_STATES) expect(isOrderState(s)).toBe(true);
    for (const e of ORDER_EVENTS) expect(isOrderEvent(e)).toBe(true);
    for (const v of ["", "Paid", "payment-failed", 1, null, undefined, "pay"]) expect(isOrderState(v)).toBe(false);
    for (const v of ["", "Pay", "refund", 0, null, undefined, "paid"]) expect(isOrderEvent(v)).toBe(false);
  });
});

// The order state machine: the cross-team contract from DESIGN.md, as data. Pure: no I/O, no clock.
// A leaf: it imports nothing, so lib/problems.ts and lib/auth/permissions.ts can name its states and
// events without a loop back through them.

export const ORDER_STATES = ["created", "paid", "delivering", "delivered", "refunding", "refunded", "closed"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const ORDER_EVENTS = [
  "pay",
  "begin-delivery",
  "confirm-delivery",
  "request-refund",
  "confirm-refund",
  "reject-refund",
  "close",
  "reverse-refund",
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

export const SOURCES = ["console", "api", "job", "callback", "store"] as const;
export type Source = (typeof SOURCES)[number];

/** Named preconditions of one edge; each is evaluated by guards.ts. */
export type GuardName = "amount-matches" | "nothing-pending" | "grants-reversed" | "grants-restored";

/**
 * Where an edge leads. `previous` is the target of reject-refund and reverse-refund: the state the
 * order had when the refund was requested, read from the order's history.
 */
export type Target = OrderState | "previous";

export interface Edge {
  readonly to: Target;
  readonly guard?: GuardName;
}

/**
 * Final for everything a person or a channel can do. One edge leaves refunded: a store that reverses
 * its own refund (reverse-refund, issue 16) takes the order back to where it was, its goods given
 * back once; no console role and no API caller may send that event (lib/auth/permissions.ts).
 */
export const TERMINAL_STATES: readonly OrderState[] = ["refunded", "closed"];

/** The state table. A missing cell is an illegal event; its reason comes from `refusal`. */
export const TRANSITIONS: Readonly<Record<OrderState, Partial<Record<OrderEvent, Edge>>>> = {
  created: {
    pay: { to: "paid", guard: "amount-matches" },
    close: { to: "closed" },
  },
  paid: {
    "begin-delivery": { to: "delivering" },
    "request-refund": { to: "refunding" },
    close: { to: "closed" },
  },
  delivering: {
    "confirm-delivery": { to: "delivered", guard: "nothing-pending" },
    "request-refund": { to: "refunding" },
  },
  delivered: {
    "request-refund": { to: "refunding" },
  },
  refunding: {
    "confirm-refund": { to: "refunded", guard: "grants-reversed" },
    "reject-refund": { to: "previous" },
  },
  refunded: {
    "reverse-refund": { to: "previous", guard: "grants-restored" },
  },
  closed: {},
};

export function edgeFor(state: OrderState, event: OrderEvent): Edge | undefined {
  return TRANSITIONS[state][event];
}

export function isOrderState(value: unknown): value is OrderState {
  return typeof value === "string" && (ORDER_STATES as readonly string[]).includes(value);
}

export function isOrderEvent(value: unknown): value is OrderEvent {
  return typeof value === "string" && (ORDER_EVENTS as readonly string[]).includes(value);
}

/** The states from which `event` is legal: "where could this have been done from?" */
export function statesAccepting(event: OrderEvent): OrderState[] {
  return ORDER_STATES.filter((s) => TRANSITIONS[s][event] !== undefined);
}

/** The refusals the table itself gives; lib/problems.ts's Refusal includes them. */
export type MachineRefusal =
  | { readonly kind: "terminal-state"; readonly state: OrderState; readonly event: OrderEvent }
  | { readonly kind: "illegal-event"; readonly state: OrderState; readonly event: OrderEvent; readonly from: readonly OrderState[] };

/** Why `event` is refused in `state`, as data; null when it is legal. */
export function refusal(state: OrderState, event: OrderEvent): MachineRefusal | null {
  if (edgeFor(state, event)) return null;
  if (TERMINAL_STATES.includes(state)) return { kind: "terminal-state", state, event };
  return { kind: "illegal-event", state, event, from: statesAccepting(event) };
}

export type EventAvailability =
  | { readonly event: OrderEvent; readonly allowed: true; readonly to: Target; readonly guard?: GuardName }
  | { readonly event: OrderEvent; readonly allowed: false; readonly refusal: MachineRefusal };

/** Every event, in table order, with whether it is legal now and, if not, why not. */
export function availableEvents(state: OrderState): EventAvailability[] {
  return ORDER_EVENTS.map((event) => {
    const edge = edgeFor(state, event);
    return edge
      ? { event, allowed: true as const, to: edge.to, ...(edge.guard ? { guard: edge.guard } : {}) }
      : { event, allowed: false as const, refusal: refusal(state, event)! };
  });
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

import { describe, expect, it } from "vitest";
import { boxRect, EDGES, labelRect, liveEdges, overlaps, VIEW } from "./diagram-layout";
import { ORDER_STATES, TRANSITIONS, type OrderState } from "./machine";

// Every situation the diagram is drawn in: each state, and refunding once per state a refund can
// be requested from (its way back is the live edge then).
const SITUATIONS: readonly [OrderState, OrderState | null][] = [
  ...ORDER_STATES.filter((s) => s !== "refunding").map((s): [OrderState, null] => [s, null]),
  ...ORDER_STATES.filter((s) => TRANSITIONS[s]["request-refund"]).map((s): [OrderState, OrderState] => ["refunding", s]),
];

describe("state diagram layout", () => {
  it.each(SITUATIONS)("at %s (refund from %s): no edge name lies on a box, on another name, or outside the picture", (state, previous) => {
    const live = liveEdges(state, previous);
    const collisions: string[] = [];
    for (const e of live) {
      const label = labelRect(e);
      for (const s of ORDER_STATES) if (overlaps(label, boxRect(s))) collisions.push(`${e.event} on ${s}`);
      for (const other of live) if (other !== e && overlaps(label, labelRect(other))) collisions.push(`${e.event} on ${other.event}`);
      if (label.left < 0 || label.top < 0 || label.right > VIEW.width || label.bottom > VIEW.height) collisions.push(`${e.event} outside`);
    }
    expect(collisions).toEqual([]);
  });

  it("has every state's box inside the picture, none on another", () => {
    for (const s of ORDER_STATES) {
      const box = boxRect(s);
      expect(box.left >= 0 && box.top >= 0 && box.right <= VIEW.width && box.bottom <= VIEW.height, s).toBe(true);
      for (const t of ORDER_STATES) if (t !== s) expect(overlaps(box, boxRect(t)), `${s} on ${t}`).toBe(false);
    }
  });

  it("draws every edge of the state table, and a way back from refunding (reject-refund) and refunded (reverse-refund) to each state a refund leaves", () => {
    const forward = ORDER_STATES.flatMap((from) => Object.entries(TRANSITIONS[from]).filter(([, e]) => e.to !== "previous").map(([event, e]) => `${from} ${event} ${e.to}`));
    expect(EDGES.filter((e) => !e.back).map((e) => `${e.from} ${e.event} ${e.to}`)).toEqual(forward);
    expect(EDGES.filter((e) => e.back).map((e) => `${e.from} ${e.to}`)).toEqual([
      "refunding paid",
      "refunding delivering",
      "refunding delivered",
      "refunded paid",
      "refunded delivering",
      "refunded delivered",
    ]);
  });
});

// Where the state diagram draws each state and each edge's name (components/orders/state-diagram.tsx).
// Pure geometry, kept apart so a test can check, for every state an order can be in, that no name
// it shows lies on a box or on another name.
import { ORDER_STATES, TRANSITIONS, type OrderEvent, type OrderState } from "./machine";

export const VIEW = { width: 830, height: 250 } as const;
export const BOX = { width: 110, height: 34 } as const;

// The happy path left to right; refunds above the states they leave from; closed below the two
// states it can be reached from. Boxes are 105 units apart, room for the longest edge name.
export const POSITION: Readonly<Record<OrderState, { readonly x: number; readonly y: number }>> = {
  created: { x: 65, y: 135 },
  paid: { x: 280, y: 135 },
  delivering: { x: 495, y: 135 },
  delivered: { x: 710, y: 135 },
  refunding: { x: 495, y: 40 },
  refunded: { x: 710, y: 40 },
  closed: { x: 172, y: 222 },
};

/** An edge name's font: monospace at 10 units, about 0.6 of that per character. */
const CHAR_WIDTH = 6.2;
const LABEL_HEIGHT = 11;
/** The edges back (reject-refund, reverse-refund) are bent aside so they do not lie on the request-refund edges. */
const BEND = 26;

export interface DrawnEdge {
  readonly from: OrderState;
  readonly to: OrderState;
  readonly event: OrderEvent;
  /** reject-refund, reverse-refund: back to the state the refund was requested from (one dashed edge per such state). */
  readonly back: boolean;
  /** The path: from one box's border to the other's, through a control point. */
  readonly x1: number;
  readonly y1: number;
  readonly cx: number;
  readonly cy: number;
  readonly x2: number;
  readonly y2: number;
  /** Where the edge's name is written (its text baseline's centre). */
  readonly labelX: number;
  readonly labelY: number;
}

export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

function anchor(from: OrderState, to: OrderState): { x1: number; y1: number; x2: number; y2: number } {
  const a = POSITION[from];
  const b = POSITION[to];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  // Leave and enter each box on its border, along the line between the centres.
  const sx = dx === 0 ? Infinity : BOX.width / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : BOX.height / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x1: a.x + dx * s, y1: a.y + dy * s, x2: b.x - dx * s, y2: b.y - dy * s };
}

function edge(from: OrderState, to: OrderState, event: OrderEvent, back: boolean): DrawnEdge {
  const { x1, y1, x2, y2 } = anchor(from, to);
  const bend = back ? BEND : 0;
  const cx = (x1 + x2) / 2 + bend;
  const cy = (y1 + y2) / 2 + bend;
  // The curve's own midpoint (a quadratic's point at t = 1/2), the name just above it.
  const midX = (x1 + 2 * cx + x2) / 4;
  const midY = (y1 + 2 * cy + y2) / 4;
  return { from, to, event, back, x1, y1, cx, cy, x2, y2, labelX: midX, labelY: midY - 5 };
}

export const EDGES: readonly DrawnEdge[] = ORDER_STATES.flatMap((from) =>
  Object.entries(TRANSITIONS[from]).flatMap(([event, target]): DrawnEdge[] =>
    target.to === "previous"
      ? ORDER_STATES.filter((s) => TRANSITIONS[s]["request-refund"]).map((to) => edge(from, to, event as OrderEvent, true))
      : [edge(from, target.to, event as OrderEvent, false)],
  ),
);

/** The edges whose names are shown for an order in `state`: those leaving it (from refunding or refunded, only the way back it came). */
export function liveEdges(state: OrderState, previous: OrderState | null): DrawnEdge[] {
  return EDGES.filter((e) => e.from === state && (!e.back || e.to === previous));
}

export function boxRect(state: OrderState): Rect {
  const { x, y } = POSITION[state];
  return { left: x - BOX.width / 2, top: y - BOX.height / 2, right: x + BOX.width / 2, bottom: y + BOX.height / 2 };
}

/** The space an edge's name takes (centred on labelX, baseline at labelY). */
export function labelRect(e: DrawnEdge): Rect {
  const width = e.event.length * CHAR_WIDTH;
  return { left: e.labelX - width / 2, top: e.labelY - LABEL_HEIGHT + 2, right: e.labelX + width / 2, bottom: e.labelY + 2 };
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

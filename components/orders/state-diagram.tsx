import { useTranslations } from "next-intl";
import { ORDER_STATES, TRANSITIONS, type OrderEvent, type OrderState } from "@/lib/orders/machine";

// The state table drawn from the same typed constant transit() uses, so the picture cannot drift
// from the rules. The current state and the edges leaving it are highlighted.

const POSITION: Readonly<Record<OrderState, { x: number; y: number }>> = {
  created: { x: 70, y: 110 },
  paid: { x: 230, y: 110 },
  delivering: { x: 390, y: 110 },
  delivered: { x: 550, y: 110 },
  refunding: { x: 470, y: 30 },
  refunded: { x: 630, y: 30 },
  closed: { x: 150, y: 190 },
};
const W = 110;
const H = 34;

interface DrawnEdge {
  readonly from: OrderState;
  readonly to: OrderState;
  readonly event: OrderEvent;
  readonly back: boolean;
}

const EDGES: readonly DrawnEdge[] = ORDER_STATES.flatMap((from) =>
  Object.entries(TRANSITIONS[from]).flatMap(([event, edge]): DrawnEdge[] =>
    edge.to === "previous"
      ? // reject-refund returns to where the refund was requested from: one dashed edge per such state.
        ORDER_STATES.filter((s) => TRANSITIONS[s]["request-refund"]).map((to) => ({ from, to, event: event as OrderEvent, back: true }))
      : [{ from, to: edge.to, event: event as OrderEvent, back: false }],
  ),
);

function anchor(from: OrderState, to: OrderState): { x1: number; y1: number; x2: number; y2: number } {
  const a = POSITION[from];
  const b = POSITION[to];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  // Leave and enter each box on its border, along the line between the centres.
  const clip = (ddx: number, ddy: number) => {
    const sx = ddx === 0 ? Infinity : W / 2 / Math.abs(ddx);
    const sy = ddy === 0 ? Infinity : H / 2 / Math.abs(ddy);
    return Math.min(sx, sy);
  };
  const s = clip(dx, dy);
  return { x1: a.x + dx * s, y1: a.y + dy * s, x2: b.x - dx * s, y2: b.y - dy * s };
}

export function StateDiagram({ state, previous }: { state: OrderState; previous?: OrderState | null }) {
  const t = useTranslations("state");
  const page = useTranslations("orderPage");
  const drawn = EDGES.map((e) => {
    // From refunding, only the edge back to the state the refund came from is live.
    const live = e.from === state && (!e.back || e.to === previous);
    const { x1, y1, x2, y2 } = anchor(e.from, e.to);
    const bend = e.back ? 26 : 0;
    return { e, live, x1, y1, x2, y2, mx: (x1 + x2) / 2 + bend, my: (y1 + y2) / 2 + bend };
  });
  return (
    <svg viewBox="0 0 700 220" role="img" aria-label={page("diagramLabel", { state: t(state) })} className="w-full max-w-3xl">
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#94a3b8" />
        </marker>
        <marker id="arrow-live" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#0f172a" />
        </marker>
      </defs>
      {drawn.map(({ e, live, x1, y1, x2, y2, mx, my }) => (
        <path
          key={`${e.from}-${e.event}-${e.to}`}
          d={`M${x1},${y1} Q${mx},${my} ${x2},${y2}`}
          fill="none"
          stroke={live ? "#0f172a" : "#cbd5e1"}
          strokeWidth={live ? 2 : 1}
          strokeDasharray={e.back ? "4 3" : undefined}
          markerEnd={`url(#${live ? "arrow-live" : "arrow"})`}
        />
      ))}
      {ORDER_STATES.map((s) => {
        const { x, y } = POSITION[s];
        const current = s === state;
        return (
          <g key={s} aria-current={current ? "step" : undefined}>
            <rect x={x - W / 2} y={y - H / 2} width={W} height={H} rx={6} fill={current ? "#0f172a" : "white"} stroke={current ? "#0f172a" : "#94a3b8"} />
            <text x={x} y={y - 2} textAnchor="middle" className={`font-mono text-[11px] ${current ? "fill-white" : "fill-slate-800"}`}>
              {s}
            </text>
            <text x={x} y={y + 11} textAnchor="middle" className={`text-[9px] ${current ? "fill-slate-300" : "fill-slate-500"}`}>
              {t(s)}
            </text>
          </g>
        );
      })}
      {/* The live edges' names last, so no box covers them. */}
      {drawn
        .filter((d) => d.live)
        .map(({ e, mx, my }) => (
          <text
            key={`${e.from}-${e.event}-${e.to}`}
            x={mx}
            y={my - 6}
            textAnchor="middle"
            stroke="white"
            strokeWidth={4}
            paintOrder="stroke"
            className="fill-slate-900 font-mono text-[10px] font-semibold"
          >
            {e.event}
          </text>
        ))}
    </svg>
  );
}

import { useTranslations } from "next-intl";
import { BOX, EDGES, liveEdges, POSITION, VIEW } from "@/lib/orders/diagram-layout";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";

// The state table drawn from the same typed constant transit() uses, so the picture cannot drift
// from the rules. The current state and the edges leaving it are highlighted, with their names.
// Where things go is lib/orders/diagram-layout.ts (tested: no name on a box, in every state).

export function StateDiagram({ state, previous }: { state: OrderState; previous?: OrderState | null }) {
  const t = useTranslations("state");
  const page = useTranslations("orderPage");
  const live = new Set(liveEdges(state, previous ?? null));
  return (
    <svg viewBox={`0 0 ${VIEW.width} ${VIEW.height}`} role="img" aria-label={page("diagramLabel", { state: t(state) })} className="mx-auto h-auto w-full max-w-4xl">
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#94a3b8" />
        </marker>
        <marker id="arrow-live" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#0f172a" />
        </marker>
      </defs>
      {EDGES.map((e) => (
        <path
          key={`${e.from}-${e.event}-${e.to}`}
          d={`M${e.x1},${e.y1} Q${e.cx},${e.cy} ${e.x2},${e.y2}`}
          fill="none"
          stroke={live.has(e) ? "#0f172a" : "#cbd5e1"}
          strokeWidth={live.has(e) ? 2 : 1}
          strokeDasharray={e.back ? "4 3" : undefined}
          markerEnd={`url(#${live.has(e) ? "arrow-live" : "arrow"})`}
        />
      ))}
      {ORDER_STATES.map((s) => {
        const { x, y } = POSITION[s];
        const current = s === state;
        return (
          <g key={s} aria-current={current ? "step" : undefined}>
            <rect
              x={x - BOX.width / 2}
              y={y - BOX.height / 2}
              width={BOX.width}
              height={BOX.height}
              rx={6}
              fill={current ? "#0f172a" : "white"}
              stroke={current ? "#0f172a" : "#94a3b8"}
            />
            <text x={x} y={y - 2} textAnchor="middle" className={`font-mono text-[11px] ${current ? "fill-white" : "fill-slate-800"}`}>
              {s}
            </text>
            <text x={x} y={y + 11} textAnchor="middle" className={`text-[9px] ${current ? "fill-slate-200" : "fill-slate-600"}`}>
              {t(s)}
            </text>
          </g>
        );
      })}
      {/* The live edges' names last, so no line covers them. */}
      {[...live].map((e) => (
        <text
          key={`${e.from}-${e.event}-${e.to}`}
          x={e.labelX}
          y={e.labelY}
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

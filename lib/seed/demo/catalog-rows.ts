// The catalogue and the scenarios as rows of the session's small temp tables (session.ts). Pure.
import { checkGuard, type LineFacts } from "@/lib/orders/guards";
import { DEFAULT_TAKE_BACK_RULES } from "@/lib/orders/take-back";
import { lineProgress } from "@/lib/orders/progress";
import type { Refusal } from "@/lib/problems";
import { DEMO_CATALOG, planScenario, SCENARIOS, type DemoDelivery, type DemoLine, type DemoProduct, type DemoTenantId } from "../demo-catalog";

/** The demo tenants in the order of seed_tenants.t (1, 2). */
export const TENANT_ORDER = ["xiaoxiao", "fangzhou"] as const satisfies readonly DemoTenantId[];

export interface StalledDelivery {
  /** The product's lines in sku order (the order transit() and the coordinator read them in). */
  readonly lines: readonly LineFacts[];
  /** The line the coordinator's grant call failed on (managed delivery). */
  readonly stallSku: string;
  /** What transit()'s nothing-pending guard says about it. */
  readonly refusal: Refusal;
}

/**
 * How far a delivery that never finished got. The game server (external) granted half of the first
 * line and nothing else. The coordinator (managed) grants whole lines in sku order and stops at the
 * first call that fails: here the second line by sku (the only one, for a one-line pack).
 */
export function stalledDelivery(product: DemoProduct, mode: DemoDelivery["mode"], currency: string): StalledDelivery {
  const bySku = skuOrder(product);
  const stallRank = Math.min(2, bySku.length);
  const granted = (line: DemoLine, rank: number): number => {
    if (mode === "external") return line === product.lines[0] ? Math.floor(line.quantity / 2) : 0;
    return rank < stallRank ? line.quantity : 0;
  };
  const lines = bySku.map((line, index) => ({ ...lineProgress(line, { granted: granted(line, index + 1), reversed: 0 }), kind: line.kind }));
  const verdict = checkGuard("nothing-pending", { orderAmount: product.price, currency, lines });
  if (verdict.ok) throw new Error(`a stalled delivery of ${product.code} has nothing pending`);
  return { lines, stallSku: bySku[stallRank - 1]!.sku, refusal: verdict.refusal };
}

function skuOrder(product: DemoProduct): DemoLine[] {
  return [...product.lines].sort((a, b) => a.sku.localeCompare(b.sku));
}

/**
 * Where a line's grant falls within its batch's window (grants-sql.ts), as offset + u · scale with u
 * uniform in [0, 1). The game server's fall anywhere; the coordinator's one after another in sku
 * order, the first batch's from the start of the window, the last batch's up to its end.
 */
function grantPositions(mode: DemoDelivery["mode"], index: number, count: number) {
  if (mode === "external") return { first_off: 0, last_off: 0, pos_scale: 1 };
  return { first_off: index / count, last_off: (count - 1 - index) / count, pos_scale: 1 / count };
}

/** seed_products and seed_lines. */
export function catalogRows(currency: Readonly<Record<DemoTenantId, string>>) {
  const products = TENANT_ORDER.flatMap((id, index) =>
    DEMO_CATALOG[id].products.map((p, pIndex) => {
      const stalled = stalledDelivery(p, DEMO_CATALOG[id].delivery.mode, currency[id]);
      return { t: index + 1, product: pIndex + 1, code: p.code, price: p.price, stall_sku: stalled.stallSku, stall_refusal: stalled.refusal };
    }),
  );
  const lines = TENANT_ORDER.flatMap((id, index) =>
    DEMO_CATALOG[id].products.flatMap((p, pIndex) => {
      const bySku = skuOrder(p);
      const stalled = stalledDelivery(p, DEMO_CATALOG[id].delivery.mode, currency[id]);
      return p.lines.map((l, lIndex) => ({
        t: index + 1,
        product: pIndex + 1,
        line_no: lIndex + 1,
        sku: l.sku,
        kind: l.kind,
        quantity: l.quantity,
        disposition: DEFAULT_TAKE_BACK_RULES[l.kind],
        // Granted in full before the call that failed, in a delivery that stalled (managed delivery).
        before_stall: stalled.lines.find((s) => s.sku === l.sku)!.pending === 0,
        ...grantPositions(DEMO_CATALOG[id].delivery.mode, bySku.indexOf(l), bySku.length),
      }));
    }),
  );
  return { products, lines };
}

/** seed_scenarios and seed_steps_def: each scenario walked through the state table once. */
export function scenarioRows() {
  const plans = SCENARIOS.map((s) => planScenario(s.events));
  const scenarios = SCENARIOS.map((s, index) => ({
    scenario: index + 1,
    code: s.code,
    final_state: plans[index]!.finalState,
    tail: s.tail,
    close_via: s.closeVia ?? null,
    delivery: plans[index]!.delivery,
    steps: s.events.length,
    events: s.events,
  }));
  const steps = plans.flatMap((plan, index) =>
    plan.steps.map((s) => ({ scenario: index + 1, step: s.step, event: s.event, from_state: s.from, to_state: s.to, cycle: s.cycle })),
  );
  return { scenarios, steps };
}

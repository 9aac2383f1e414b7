import "server-only";
import { getPool } from "@/lib/db/pool";
import { planDelivery, type DeliveryStep } from "./delivery-plan";
import { grant } from "./grant";
import type { Source } from "./machine";
import { getOrderDetail } from "./queries/order-detail";
import { transit } from "./transit";

export interface CompleteDeliveryInput {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason: string;
  /** Namespaces the grantIds and bizKeys this run writes: "repair", or "bulk:<batch id>". */
  readonly keyPrefix: string;
}

export interface StepOutcome {
  readonly step: DeliveryStep;
  readonly result: string;
}

export type CompleteDeliveryResult =
  | { readonly result: "completed"; readonly steps: readonly StepOutcome[] }
  | { readonly result: "incomplete"; readonly steps: readonly StepOutcome[]; readonly reason: string }
  | { readonly result: "not-possible"; readonly reason: string; readonly nothingToDo: boolean }
  | { readonly result: "in-progress" }
  | { readonly result: "not-found" };

/**
 * Repair delivery for one order: begin delivery if needed, grant every pending line, confirm
 * delivery — each step through transit()/grant(), so each is recorded and idempotent.
 *
 * - A rerun after a partial failure completes the rest: grantIds are `<prefix>:<sku>:<granted so
 *   far>`, so a grant that did commit is never made again, and one that did not gets the same id.
 * - A second run on the same order while one is in progress is told so at once: a database
 *   advisory lock (not memory: any web instance may run it), taken with try-lock, never waited on.
 */
export async function completeDelivery(input: CompleteDeliveryInput): Promise<CompleteDeliveryResult> {
  const lockClient = await getPool().connect();
  const lockKey = `delivery:${input.tenantId}:${input.orderNo}`;
  try {
    const { rows } = await lockClient.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [lockKey]);
    if (!rows[0]!.locked) return { result: "in-progress" };
    try {
      return await run(input);
    } finally {
      await lockClient.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey]);
    }
  } finally {
    lockClient.release();
  }
}

async function run(input: CompleteDeliveryInput): Promise<CompleteDeliveryResult> {
  const detail = await getOrderDetail(input.tenantId, input.orderNo);
  if (!detail) return { result: "not-found" };
  const { order } = detail;
  const plan = planDelivery(order.state, detail.lines);
  if (!plan.possible) return { result: "not-possible", reason: plan.reason, nothingToDo: plan.nothingToDo };

  const by = { orderId: order.id, actor: input.actor, source: input.source, reason: input.reason };
  const done: StepOutcome[] = [];
  let version = order.version;
  for (const step of plan.steps) {
    let result: string;
    switch (step.kind) {
      case "begin-delivery":
      case "confirm-delivery": {
        const moved = await transit({
          ...by,
          event: step.kind,
          bizKey: `${input.keyPrefix}:${step.kind}:v${version}`,
          expectedState: step.kind === "begin-delivery" ? "paid" : "delivering",
        });
        result = moved.result;
        if (moved.result === "applied") version = moved.order.version;
        break;
      }
      case "grant": {
        const line = detail.lines.find((l) => l.sku === step.sku)!;
        const granted = await grant({ ...by, sku: step.sku, quantity: step.quantity, grantId: `${input.keyPrefix}:${step.sku}:${line.granted}` });
        result = granted.result;
        break;
      }
    }
    done.push({ step, result });
    if (result !== "applied" && result !== "duplicate") {
      return { result: "incomplete", steps: done, reason: `${step.kind}${step.kind === "grant" ? ` ${step.sku}` : ""} answered ${result}` };
    }
  }
  return { result: "completed", steps: done };
}

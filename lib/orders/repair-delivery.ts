import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import type { RepairProblem } from "@/lib/problems";
import { planDelivery, type DeliveryStep } from "./delivery-plan";
import { grant } from "./grant";
import type { Source } from "./machine";
import { getOrderDetail } from "./queries/order-detail";
import { transit } from "./transit";

export interface RepairDeliveryInput {
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
  /** What transit() or grant() answered: applied, duplicate, or a refusal's outcome. */
  readonly result: string;
}

export type RepairDeliveryResult =
  | { readonly result: "completed"; readonly steps: readonly StepOutcome[] }
  | { readonly result: "incomplete"; readonly steps: readonly StepOutcome[]; readonly problem: RepairProblem }
  | { readonly result: "not-possible"; readonly problem: RepairProblem; readonly nothingToDo: boolean }
  | { readonly result: "in-progress" }
  | { readonly result: "not-found" };

const locked = z.object({ locked: z.boolean() });

/**
 * Repair delivery for one order: begin delivery if needed, grant every pending line, confirm
 * delivery — each step through transit()/grant(), so each is recorded and idempotent.
 *
 * - A rerun after a partial failure completes the rest: grantIds are `<prefix>:<sku>:<granted so
 *   far>`, so a grant that did commit is never made again, and one that did not gets the same id.
 * - A second run on the same order while one is in progress is told so at once: a database
 *   advisory lock (not memory: any web instance may run it), taken with try-lock, never waited on.
 *   The delivery coordinator takes the same lock (lib/jobs/claim.ts deliveryKey).
 */
export async function repairDelivery(input: RepairDeliveryInput): Promise<RepairDeliveryResult> {
  const lockClient = await getPool().connect();
  const lockKey = `delivery:${input.tenantId}:${input.orderNo}`;
  try {
    const { locked: mine } = await one(lockClient, locked, `SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [lockKey]);
    if (!mine) return { result: "in-progress" };
    try {
      return await run(input);
    } finally {
      await lockClient.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey]);
    }
  } finally {
    lockClient.release();
  }
}

async function run(input: RepairDeliveryInput): Promise<RepairDeliveryResult> {
  const detail = await getOrderDetail(input.tenantId, input.orderNo);
  if (!detail) return { result: "not-found" };
  const { order } = detail;
  const plan = planDelivery(order.state, detail.lines);
  if (!plan.possible) return { result: "not-possible", problem: plan.problem, nothingToDo: plan.nothingToDo };

  const by = { orderId: order.id, actor: input.actor, source: input.source, reason: input.reason };
  const done: StepOutcome[] = [];
  let version = order.version;
  for (const step of plan.steps) {
    if (step.kind === "grant") {
      const line = detail.lines.find((l) => l.sku === step.sku)!;
      const granted = await grant({ ...by, sku: step.sku, quantity: step.quantity, grantId: `${input.keyPrefix}:${step.sku}:${line.granted}` });
      done.push({ step, result: granted.result });
      if (granted.result === "not-found") return { result: "not-found" };
      if (!("refusal" in granted)) continue;
      return { result: "incomplete", steps: done, problem: { kind: "repair-step-refused", step: "grant", sku: step.sku, refusal: granted.refusal } };
    }
    const moved = await transit({
      ...by,
      event: step.kind,
      bizKey: `${input.keyPrefix}:${step.kind}:v${version}`,
      expectedState: step.kind === "begin-delivery" ? "paid" : "delivering",
    });
    done.push({ step, result: moved.result });
    if (moved.result === "applied") version = moved.order.version;
    if (moved.result === "applied" || moved.result === "duplicate") continue;
    if (moved.result === "not-found") return { result: "not-found" };
    return { result: "incomplete", steps: done, problem: { kind: "repair-step-refused", step: step.kind, refusal: moved.refusal } };
  }
  return { result: "completed", steps: done };
}

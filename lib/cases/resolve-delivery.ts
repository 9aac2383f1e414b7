import "server-only";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { grant, type GrantResult } from "@/lib/orders/grant";
import { repairDelivery, type RepairDeliveryResult } from "@/lib/orders/repair-delivery";
import type { Refusal } from "@/lib/problems";
import { changeCase, judgeClaim, type ClaimInput } from "./claim";
import type { CaseFacts } from "./facts";
import { lockCase } from "./lock";
import type { CaseStatus } from "./model";
import { settleDeliveryCases } from "./settle";

export interface DeliveryResolveInput extends ClaimInput {
  readonly caseId: number;
  readonly offer: "repair" | "compensate";
  readonly reason: string;
}

export interface CompensationGrant {
  readonly sku: string;
  readonly quantity: number;
  readonly result: GrantResult["result"];
  readonly refusal?: Refusal;
}

export type DeliveryResolveResult =
  | { readonly result: "duplicate"; readonly status: CaseStatus }
  | { readonly result: "repaired"; readonly repair: RepairDeliveryResult; readonly resolved: boolean }
  | { readonly result: "compensated"; readonly grants: readonly CompensationGrant[]; readonly resolved: boolean };

/**
 * The goods resolutions: repair delivery (lib/orders/repair-delivery.ts: begin, grant what is
 * pending, confirm) or compensate the missing units (grant(), line by line). First the choice is
 * recorded on the case under its lock (in progress, with the person's reason); then the work runs
 * through the domain, each step idempotent (keys made from the case, so a second submission or a
 * rerun never grants twice); then the case resolves itself if the lines are complete — and if they
 * are not yet (the coordinator holds the order, a step was refused), the worker's sweep closes it
 * once they are.
 */
export async function resolveDeliveryCase(input: DeliveryResolveInput): Promise<DeliveryResolveResult> {
  const claimed = await transaction(
    async (tx: PrismaTransaction): Promise<{ facts: CaseFacts } | { duplicate: CaseStatus }> => {
      const locked = await lockCase(tx, input.caseId);
      const claim = judgeClaim(locked, input);
      if (claim.kind === "duplicate") return { duplicate: claim.facts.status };
      // The same submission again reruns the (idempotent) work, but is not a second choice.
      if (locked.resolutionKey !== input.requestKey) {
        await changeCase(tx, claim.facts, {
          status: "in-progress",
          actor: input.actor,
          resolution: input.offer,
          requestKey: input.requestKey,
          reason: input.reason,
          action: "case.resolving",
        });
      }
      return { facts: claim.facts };
    },
    { prisma: true },
  );
  if ("duplicate" in claimed) return { result: "duplicate", status: claimed.duplicate };
  const c = claimed.facts;
  const keyPrefix = `case-${c.id}`;
  const settle = async () => (await settleDeliveryCases({ tenantId: c.tenantId, orderId: c.orderId! })) > 0;

  if (input.offer === "repair") {
    const repair = await repairDelivery({ tenantId: c.tenantId, orderNo: c.order!.orderNo, actor: input.actor, source: "console", reason: input.reason, keyPrefix });
    return { result: "repaired", repair, resolved: await settle() };
  }
  const grants: CompensationGrant[] = [];
  for (const line of (c.lines ?? []).filter((l) => l.pending > 0)) {
    const granted = await grant({
      orderId: c.orderId!,
      sku: line.sku,
      quantity: line.pending,
      // The units delivered so far are part of the key: a rerun after this grant committed asks for
      // the rest under a new key, a rerun before it gets the same key (a duplicate).
      grantId: `${keyPrefix}:${line.sku}:${line.granted}`,
      actor: input.actor,
      source: "console",
      reason: input.reason,
    });
    grants.push({ sku: line.sku, quantity: line.pending, result: granted.result, ...("refusal" in granted ? { refusal: granted.refusal } : {}) });
  }
  return { result: "compensated", grants, resolved: await settle() };
}

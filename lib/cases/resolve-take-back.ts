import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { maybeOne } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { changeCase, judgeClaim, type ClaimInput } from "./claim";
import { lockCase } from "./lock";
import type { CaseStatus } from "./model";

export interface TakeBackResolveInput extends ClaimInput {
  readonly caseId: number;
  readonly offer: "retry-take-back";
  readonly reason: string;
}

export type TakeBackResolveResult =
  | { readonly result: "duplicate"; readonly status: CaseStatus }
  /**
   * The row is owed to the game again; the worker's next run calls it and, once the game answers,
   * resolves the case (lib/cases/settle-take-back-case.ts). `endpointSet` false: the tenant has no
   * `endpoint` for the call, so the row fails again at once unless one is set in Settings first.
   */
  | { readonly result: "retrying"; readonly takeBackId: number; readonly endpoint: "revoke" | "grant"; readonly endpointSet: boolean };

const RETRIED = "take-back.retried";

const retriedRow = z.object({ id: z.number(), sku: z.string(), units: z.number(), rule: z.string(), attempts: z.number(), lastError: z.string().nullable() });

/**
 * Retries the failed take_backs row behind a take-back-failed case, in one transaction under the
 * case's lock: the choice is recorded on the case (in progress, the person's reason and request
 * key), the row is made `pending` and due now with its attempts reset (the job's budget starts
 * afresh), and the fact `take-back.retried` says who and why. last_error stays until the next
 * attempt replaces it, so the row still says why it failed meanwhile.
 *
 * The same submission again is a duplicate, never a second call: its key is on the retry's audit
 * fact, so even after the row failed once more (and the retry is offered again) the old form
 * changes nothing.
 */
export async function resolveTakeBackCase(input: TakeBackResolveInput): Promise<TakeBackResolveResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<TakeBackResolveResult> => {
      const locked = await lockCase(tx, input.caseId);
      const claim = judgeClaim(locked, input);
      if (claim.kind === "duplicate") return { result: "duplicate", status: claim.facts.status };
      const { facts, offer } = claim;
      if (offer.kind !== "retry-take-back" || facts.takeBack === null) {
        throw new AppError("conflict", { kind: "resolution-not-offered", resolution: input.offer });
      }
      const takeBackId = facts.takeBack.id;
      if (locked.resolutionKey === input.requestKey || (await retriedBefore(tx, takeBackId, input.requestKey))) {
        return { result: "duplicate", status: facts.status };
      }
      // The status condition: only a failed row is retried. The case lock orders retries of this case;
      // the job touches pending rows only, so a row read as failed under the lock is still failed here.
      const row = await maybeOne(
        tx.client,
        retriedRow,
        `WITH failed AS (SELECT id, attempts FROM take_backs WHERE id = $1 AND tenant_id = $2 AND status = 'failed' FOR UPDATE)
         UPDATE take_backs t SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
         FROM failed WHERE t.id = failed.id
         RETURNING t.id, t.sku, t.units, t.rule, failed.attempts, t.last_error AS "lastError"`,
        [takeBackId, facts.tenantId],
      );
      if (!row) throw new AppError("conflict", { kind: "resolution-not-offered", resolution: input.offer });
      await changeCase(tx, facts, {
        status: "in-progress",
        actor: input.actor,
        resolution: "retry-take-back",
        requestKey: input.requestKey,
        reason: input.reason,
        action: "case.resolving",
        detail: { takeBackId },
      });
      await audit(
        {
          actor: input.actor,
          action: RETRIED,
          tenantId: facts.tenantId,
          orderId: facts.orderId,
          target: `take-back:${takeBackId}`,
          detail: {
            takeBackId,
            caseId: facts.id,
            sku: row.sku,
            units: row.units,
            rule: row.rule,
            // What the row had used and why it failed, before this retry started it afresh.
            attemptsBefore: row.attempts,
            lastError: row.lastError,
            endpoint: offer.endpoint,
            endpointSet: offer.endpointSet,
            reason: input.reason,
            requestKey: input.requestKey,
          },
        },
        tx.prisma,
      );
      return { result: "retrying", takeBackId, endpoint: offer.endpoint, endpointSet: offer.endpointSet };
    },
    { prisma: true, retry: { label: `case ${input.offer}` } },
  );
}

/** Whether this submission already retried the row (through the (action, target) audit index). */
async function retriedBefore(tx: PrismaTransaction, takeBackId: number, requestKey: string): Promise<boolean> {
  const found = await maybeOne(
    tx.client,
    z.object({ found: z.literal(1) }),
    `SELECT 1 AS found FROM audit_events WHERE action = $1 AND target = $2 AND detail->>'requestKey' = $3 LIMIT 1`,
    [RETRIED, `take-back:${takeBackId}`, requestKey],
  );
  return found !== null;
}

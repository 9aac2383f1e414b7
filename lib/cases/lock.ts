import "server-only";
import { z } from "zod";
import { maybeOne, one } from "@/lib/db/sql";
import type { Tx } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import type { CaseFacts } from "./facts";
import { CASE_COLUMNS, CASE_JOINS, caseFactsRow } from "./queries/case-select";

export interface LockedCase {
  readonly facts: CaseFacts;
  /** The idempotency key of the submission that chose the case's resolution (or dismissed it). */
  readonly resolutionKey: string | null;
}

const lockedRow = z.object({ id: z.number(), resolutionKey: z.string().nullable() });

/**
 * Locks one case row for the rest of the transaction, then reads its facts in a second statement:
 * under READ COMMITTED that statement sees whatever a concurrent twin committed while we waited
 * for the lock (a take, a resolution, a refund), so the decision is made on the state that counts.
 * Every change to a case goes through here, so two takes or two resolutions queue up on the row
 * and the second one finds the first one's result. An unknown case is not-found (404).
 */
export async function lockCase(tx: Tx, caseId: number): Promise<LockedCase> {
  const locked = await maybeOne(tx.client, lockedRow, `SELECT id, resolution_key AS "resolutionKey" FROM order_exceptions WHERE id = $1 FOR UPDATE`, [caseId]);
  if (!locked) throw new AppError("not-found");
  const facts = await one(tx.client, caseFactsRow, `SELECT ${CASE_COLUMNS} FROM order_exceptions e ${CASE_JOINS} WHERE e.id = $1`, [caseId]);
  return { facts, resolutionKey: locked.resolutionKey };
}

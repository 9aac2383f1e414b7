import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { execute, rows } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";
import { takeBackCaseKey, type Resolution } from "./model";

// Beside lib/cases/settle.ts (the system closing goods and refund cases), for the take-back job:
// the case a failed take_backs row filed is closed by the system once that row is done after all.

const activeCase = z.object({ id: z.number() });

const RESOLUTION: Resolution = "take-back-done";

/**
 * Resolves the row's active `take-back-failed` case, inside the transaction that made the row
 * `done`, with its audit fact; a dismissed or resolved case stays as it is. Returns how many cases
 * it resolved (0 or 1).
 */
export async function settleTakeBackCase(
  tx: PrismaTransaction,
  input: { readonly tenantId: string; readonly orderId: number; readonly takeBackId: number; readonly actor: string },
): Promise<number> {
  const cases = await rows(
    tx.client,
    activeCase,
    `SELECT id FROM order_exceptions
     WHERE tenant_id = $1 AND order_id = $2 AND kind = 'take-back-failed' AND biz_key = $3 AND status IN ('open', 'in-progress')
     FOR UPDATE`,
    [input.tenantId, input.orderId, takeBackCaseKey(input.takeBackId)],
  );
  for (const c of cases) {
    await execute(
      tx.client,
      `UPDATE order_exceptions SET status = 'resolved', resolution = $2, resolved_at = now(), resolved_by = $3 WHERE id = $1`,
      [c.id, RESOLUTION, input.actor],
    );
    await audit(
      {
        actor: input.actor,
        action: "case.resolved",
        tenantId: input.tenantId,
        orderId: input.orderId,
        target: `case:${c.id}`,
        detail: { caseId: c.id, kind: "take-back-failed", resolution: RESOLUTION, takeBackId: input.takeBackId },
      },
      tx.prisma,
    );
  }
  return cases.length;
}

import "server-only";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";
import type { Viewer } from "../offers";
import { caseView, type CaseView } from "../view";
import { CASE_COLUMNS, CASE_JOINS, caseFactsRow } from "./case-select";

/** Every case of one order, the active ones first, newest first within each (the order page's panel). */
export async function loadOrderCases(tenantId: string, orderId: number, viewer: Viewer | null, db: Queryable = getPool()): Promise<CaseView[]> {
  const facts = await rows(
    db,
    caseFactsRow,
    `SELECT ${CASE_COLUMNS} FROM order_exceptions e ${CASE_JOINS}
     WHERE e.tenant_id = $1 AND e.order_id = $2
     ORDER BY (e.status IN ('open', 'in-progress')) DESC, e.id DESC`,
    [tenantId, orderId],
  );
  return facts.map((f) => caseView(f, viewer));
}

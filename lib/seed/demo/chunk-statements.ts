import type { HistoryProfile } from "../demo-catalog";
import { EXCEPTIONS_SQL, REFUNDS_SQL } from "./exceptions-sql";
import { GRANTS_SQL, TAKE_BACKS_SQL } from "./grants-sql";
import { MOMENTS_SQL, STEPS_SQL, TRANSITIONS_SQL } from "./history-sql";
import { LINES_SQL, ORDERS_SQL } from "./orders-sql";
import { planSql } from "./plan-sql";
import type { SeededTable } from "./seed-demo";

/** What one chunk runs, with $from, $to and $now still to bind (sql-helpers.ts). */
export interface ChunkStatements {
  /** Draws the chunk's order ids: seed-demo.ts runs the plans in chunk order. */
  readonly plan: string;
  /** In order; the table a statement fills, for the report (null: a work table). */
  readonly inserts: readonly (readonly [SeededTable | null, string])[];
}

export function chunkStatements(history: HistoryProfile): ChunkStatements {
  return {
    plan: planSql(history),
    inserts: [
      [null, STEPS_SQL],
      [null, MOMENTS_SQL],
      ["orders", ORDERS_SQL],
      ["order_lines", LINES_SQL],
      ["order_transitions", TRANSITIONS_SQL],
      ["grants", GRANTS_SQL],
      ["take_backs", TAKE_BACKS_SQL],
      ["order_exceptions", EXCEPTIONS_SQL],
      ["payment_refunds", REFUNDS_SQL],
    ],
  };
}

import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne, one, prepared } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import type { Refusal } from "@/lib/problems";
import { decideGrant, RESERVED_GRANT_PREFIXES, type GrantRefusalOutcome } from "./grant-decision";
import type { Source } from "./machine";
import { GRANT_COLUMNS, grantRow, lineLedgerRow, lineLedgerSql, LOCK_ORDER, orderRow } from "./rows";
import type { GrantRecord, OrderSnapshot } from "./types";

export interface GrantInput {
  readonly orderId: number;
  readonly sku: string;
  readonly quantity: number;
  /** Stable per delivery attempt: the same grantId again is a duplicate, never a second grant. */
  readonly grantId: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason?: string | null;
}

export type GrantResult =
  | { readonly result: "applied" | "duplicate"; readonly order: OrderSnapshot; readonly grant: GrantRecord }
  | { readonly result: GrantRefusalOutcome; readonly order: OrderSnapshot; readonly refusal: Refusal }
  /** Refused before the order was read: the grantId is one only refunds may use. */
  | { readonly result: "reserved-grant-id"; readonly refusal: Refusal }
  | { readonly result: "not-found" };

const factsRow = z.object({ line: lineLedgerRow.nullable(), existing: grantRow.nullable() });

// A delivery runs these for every line, prepared (lib/db/sql.ts). The line's grants are read by
// (tenant_id, order_id, sku) alone and the replay check is taken from them: MATERIALIZED keeps
// grant_id out of the index choice (the same guard as transit's facts statement).
const FACTS = prepared(
  "grant.facts",
  `WITH mine AS MATERIALIZED (SELECT ${GRANT_COLUMNS} FROM grants WHERE tenant_id = $1 AND order_id = $2 AND sku = $3)
   SELECT
     (SELECT row_to_json(l) FROM (${lineLedgerSql("$1", "$2")}) l WHERE l.sku = $3) AS line,
     (SELECT row_to_json(m) FROM mine m WHERE m."grantId" = $4) AS existing`,
);

const WRITE = prepared(
  "grant.write",
  `WITH g AS (
     INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING ${GRANT_COLUMNS}
   ), m AS (
     INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
     SELECT $1, $2, 'order.granted', jsonb_build_object(
       'tenantId', $1::text, 'orderNo', $9::text, 'sku', g.sku, 'grantId', g."grantId", 'quantity', g.quantity,
       'source', g.source, 'at', g."at")
     FROM g
   )
   SELECT * FROM g`,
);

/**
 * Records one grant on one order line. Under the order's row lock, so concurrent grants on the
 * same order queue up and their sum can never pass the line quantity: lock, facts, decide
 * (grant-decision.ts, pure), insert the grant and its outbox message in one statement. The unique
 * (tenant, order, sku, grant_id) index is the backstop for replays.
 */
export async function grant(input: GrantInput, pool: pg.Pool = getPool()): Promise<GrantResult> {
  const reserved = RESERVED_GRANT_PREFIXES.find((prefix) => input.grantId.startsWith(prefix));
  if (reserved) return { result: "reserved-grant-id", refusal: { kind: "reserved-grant-id", prefix: reserved } };
  return transaction(
    async ({ client }): Promise<GrantResult> => {
      const order = await maybeOne(client, orderRow, LOCK_ORDER, [input.orderId]);
      if (!order) return { result: "not-found" };

      const facts = await one(client, factsRow, FACTS, [order.tenantId, order.id, input.sku, input.grantId]);
      const decision = decideGrant({
        state: order.state,
        sku: input.sku,
        ...(facts.line ? { line: facts.line } : {}),
        alreadyGranted: facts.existing !== null,
        quantity: input.quantity,
      });
      if ("refusal" in decision) return { result: decision.outcome, order, refusal: decision.refusal };
      if (decision.outcome === "duplicate") return { result: "duplicate", order, grant: facts.existing! };

      const inserted = await one(
        client,
        grantRow,
        WRITE,
        [order.tenantId, order.id, input.sku, input.grantId, input.quantity, input.source, input.actor, input.reason ?? null, order.orderNo],
      );
      return { result: "applied", order, grant: inserted };
    },
    { pool, retry: { label: "grant", uniqueViolations: true } },
  );
}

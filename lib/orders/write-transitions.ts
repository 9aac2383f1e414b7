import "server-only";
import { z } from "zod";
import { prepared, rows, type Queryable } from "@/lib/db/sql";
import { writeLedger } from "./write-ledger";
import type { Effects } from "./decide";
import { ORDER_COLUMNS, orderRow, TRANSITION_COLUMNS, transitionRow } from "./rows";
import type { OrderSnapshot, TransitionRecord } from "./types";

const writtenRow = z.object({ order: orderRow, transition: transitionRow });

/**
 * Prepared (lib/db/sql.ts): every payment writes through it. Each transition joins its order's audit
 * chain here, not in the chain trigger (prisma/migrations/20261205100000_order_chain_heads): the
 * order's row is locked and updated anyway, and holds the chain's head. So the statement gives the
 * transition its id and time, links it to that head (chain_seq, prev_hash), hashes it as the trigger
 * would — audit_fact_hash over the row as JSON (HASHED_COLUMNS) — and moves the head in
 * the same UPDATE as the state. The hash is left to the trigger when this session renders times in
 * another zone than UTC, as the hash does (`audit verify` recomputes every one).
 */
/**
 * The transition as the chain hashes it: each column of the row it inserts, with its value in the
 * statement (f). Every column of order_transitions but the chain's own three; the chain test holds
 * this list to the table, so a column added there cannot be left out of the hash.
 */
export const HASHED_COLUMNS: Readonly<Record<string, string>> = {
  id: "id",
  tenant_id: "tenant",
  order_id: "order_id",
  event: "event",
  from_state: "from_state",
  to_state: "to_state",
  biz_key: "biz_key",
  actor: "actor",
  source: "source",
  reason: "reason",
  created_at: "at",
};
const FACT_JSON = `jsonb_build_object(${Object.entries(HASHED_COLUMNS)
  .map(([column, value]) => `'${column}', ${value}`)
  .join(", ")})`;

const COLUMNS = "order_id, tenant, event, from_state, to_state, biz_key, actor, source, reason, seen_version, topic, payload";
const writeSql = (source: string) =>
  `WITH x(${COLUMNS}) AS (
         ${source}
       ), f AS (
         SELECT x.*, nextval(pg_get_serial_sequence('order_transitions', 'id')) AS id, now() AS at,
                orders.chain_seq + 1 AS chain_seq, orders.chain_hash AS prev_hash
         FROM x JOIN orders ON orders.id = x.order_id
       ), t AS (
         INSERT INTO order_transitions (id, tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at,
                                        chain_seq, prev_hash, hash)
         SELECT id, tenant, order_id, event, from_state, to_state, biz_key, actor, source, reason, at, chain_seq, prev_hash,
                CASE WHEN extract(timezone FROM at) = 0 THEN audit_fact_hash(prev_hash, ${FACT_JSON}) END
         FROM f
         RETURNING order_id AS "orderId", chain_seq AS "chainSeq", hash AS "chainHash", ${TRANSITION_COLUMNS}
       ), o AS (
         UPDATE orders SET state = w.to_state, state_at = now(), version = version + 1, updated_at = now(),
                           chain_seq = w.chain_seq, chain_hash = w.chain_hash
         FROM (SELECT x.order_id, x.from_state, x.to_state, x.seen_version, t."chainSeq", t."chainHash" FROM x JOIN t ON t."orderId" = x.order_id)
           AS w(order_id, from_state, to_state, seen_version, chain_seq, chain_hash)
         WHERE orders.id = w.order_id AND orders.state = w.from_state AND orders.version = w.seen_version
         RETURNING ${ORDER_COLUMNS}
       ), m AS (
         INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
         SELECT x.tenant, x.order_id, x.topic, x.payload || jsonb_build_object('at', t."at")
         FROM x JOIN o ON o.id = x.order_id JOIN t ON t."orderId" = x.order_id
       )
       SELECT row_to_json(o) AS order, row_to_json(t) AS transition FROM o JOIN t ON t."orderId" = o.id`;

// Two statements that differ only in where their rows come from: one order's values (transit), or
// arrays of many (transitBatch). A generic plan cannot know an array parameter's length and prices
// every unnest at ten rows, so the array form may never leave custom plans — planned on every pay.
export const WRITE_ONE = prepared(
  "transit.write",
  writeSql(`SELECT $1::bigint, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::int, $11::text, $12::jsonb`),
);
const WRITE_MANY = prepared(
  "transit.write-batch",
  writeSql(`SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                              $9::text[], $10::int[], $11::text[], $12::jsonb[])`),
);

/**
 * Writes the effects decide() returned, for one order or many: the transitions, the orders'
 * compare-and-set moves and their outbox messages in one statement and, for the refund edges that
 * move goods (confirm-refund, reverse-refund), their ledger rows in a second (writeLedger).
 * transit() and transitBatch() both write through here.
 *
 * Returns one row per order that moved. An order whose compare-and-set matched nothing (it changed
 * since it was read) is missing from the result: the caller rolls back and tries again.
 */
export async function writeTransitions(db: Queryable, writes: readonly Effects[]): Promise<{ order: OrderSnapshot; transition: TransitionRecord }[]> {
  if (writes.length === 0) return [];
  const values = (w: Effects) => [
    w.order.id,
    w.order.tenantId,
    w.transition.event,
    w.transition.from,
    w.transition.to,
    w.transition.bizKey,
    w.transition.actor,
    w.transition.source,
    w.transition.reason,
    w.order.version,
    w.outbox.topic,
    JSON.stringify(w.outbox.payload),
  ];
  const each = writes.map(values);
  const written =
    each.length === 1
      ? await rows(db, writtenRow, WRITE_ONE, each[0]!)
      : await rows(db, writtenRow, WRITE_MANY, each[0]!.map((_, column) => each.map((row) => row[column])));
  const moved = new Set(written.map((w) => w.order.id));
  await writeLedger(
    db,
    writes.filter((w) => moved.has(w.order.id)).flatMap((w) => w.ledger.map((entry) => ({ ...entry, order: w.order, ...w.transition }))),
  );
  return written;
}

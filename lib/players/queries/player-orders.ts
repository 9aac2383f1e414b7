import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";

// Every order of one player in one product, newest first, a keyset page at a time: a range of
// orders (tenant_id, player_id, created_at), read in index order (a whale's ten thousand orders
// cost what a page costs). The cursor is (created_at, id); created_at leads the comparison as its
// own condition so the index bounds the range, and id breaks ties among orders of the same instant.

export const PLAYER_PAGE_SIZE = 50;

export interface PlayerOrderCursor {
  /** created_at in UTC with microseconds (a Date would round it and skip or repeat rows). */
  readonly createdAt: string;
  readonly id: number;
}

export interface PlayerOrder {
  readonly id: number;
  readonly orderNo: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: OrderState;
  readonly stateAt: Date;
  readonly createdAt: Date;
  readonly cursor: PlayerOrderCursor;
}

export interface PlayerOrdersPage {
  readonly rows: readonly PlayerOrder[];
  readonly newer: PlayerOrderCursor | null;
  readonly older: PlayerOrderCursor | null;
}

const orderRow = z.object({
  id: z.number(),
  orderNo: z.string(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(ORDER_STATES),
  stateAt: z.coerce.date(),
  createdAt: z.coerce.date(),
  createdKey: z.string(),
});

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,15})$/;

export function encodePlayerCursor(cursor: PlayerOrderCursor): string {
  return `${cursor.createdAt}_${cursor.id}`;
}

export function decodePlayerCursor(text: string | undefined): PlayerOrderCursor | undefined {
  const match = text ? CURSOR_PATTERN.exec(text) : null;
  if (!match || Number.isNaN(Date.parse(match[1]!))) return undefined;
  return { createdAt: match[1]!, id: Number(match[2]) };
}

export const PLAYER_ORDERS_SQL = {
  older: `SELECT o.id, o.order_no AS "orderNo", o.amount, o.currency, o.state, o.state_at AS "stateAt", o.created_at AS "createdAt",
                 to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdKey"
          FROM orders o
          WHERE o.tenant_id = $1 AND o.player_id = $2
            AND ($3::timestamptz IS NULL OR (o.created_at <= $3 AND (o.created_at, o.id) < ($3, $4::bigint)))
          ORDER BY o.created_at DESC, o.id DESC LIMIT $5`,
  newer: `SELECT o.id, o.order_no AS "orderNo", o.amount, o.currency, o.state, o.state_at AS "stateAt", o.created_at AS "createdAt",
                 to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdKey"
          FROM orders o
          WHERE o.tenant_id = $1 AND o.player_id = $2 AND o.created_at >= $3 AND (o.created_at, o.id) > ($3, $4::bigint)
          ORDER BY o.created_at ASC, o.id ASC LIMIT $5`,
} as const;

/** One page: `after` reads older orders from a cursor, `before` newer ones; neither is the newest page. */
export async function playerOrders(input: {
  readonly tenantId: string;
  readonly playerId: string;
  readonly after?: PlayerOrderCursor | undefined;
  readonly before?: PlayerOrderCursor | undefined;
  readonly limit?: number;
}, db: Queryable = getPool()): Promise<PlayerOrdersPage> {
  const limit = input.limit ?? PLAYER_PAGE_SIZE;
  const direction = input.before ? "newer" : "older";
  const cursor = input.before ?? input.after;
  const found = await rows(db, orderRow, PLAYER_ORDERS_SQL[direction], [
    input.tenantId,
    input.playerId,
    cursor?.createdAt ?? null,
    cursor?.id ?? null,
    limit + 1,
  ]);
  const more = found.length > limit;
  const page = found.slice(0, limit);
  if (direction === "newer") page.reverse();
  const list = page.map(({ createdKey, ...row }) => ({ ...row, cursor: { createdAt: createdKey, id: row.id } }));
  const first = list[0]?.cursor ?? null;
  const last = list.at(-1)?.cursor ?? null;
  return {
    rows: list,
    // Coming from a cursor, there is always something on the side we came from.
    newer: direction === "newer" ? (more ? first : null) : cursor ? first : null,
    older: direction === "older" ? (more ? last : null) : last,
  };
}

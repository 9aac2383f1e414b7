import "server-only";
import { snapshot } from "@/lib/db/transaction";
import { playerDebts, type PlayerDebt } from "@/lib/players/queries/player-debts";
import { decodePlayerCursor, encodePlayerCursor, playerOrders, type PlayerOrder } from "@/lib/players/queries/player-orders";
import { playerSummary, refundRate, type PlayerException, type PlayerMoney } from "@/lib/players/queries/player-summary";
import { refundWatch, type RefundWatch } from "@/lib/players/refund-watch";
import { playerStoreEvents, type PlayerStoreEvents } from "@/lib/stores/player-store-events";

/** A currency's lifetime money, with its refund rate (refunded ÷ paid, a fraction the page formats). */
export interface PlayerPageMoney extends PlayerMoney {
  readonly rate: number;
}

/**
 * Everything the player page shows, for one player in one product: read in one snapshot (the money,
 * the watch banner, the debts and the orders agree with each other) and sent as JSON
 * (app/api/console/players/[tenant]/[playerId]/route.ts) to the page, which only lays it out.
 */
export interface PlayerPageModel {
  /** The product's name; null when the product has no row (its id is shown instead). */
  readonly productName: string | null;
  /** Per currency, the product's own first; empty when the player has no orders here. */
  readonly money: readonly PlayerPageMoney[];
  readonly firstOrderAt: Date | null;
  readonly lastOrderAt: Date | null;
  /** Set when the player is on the product's refund watch list. */
  readonly refundWatch: RefundWatch | null;
  /** What the player owes after refunds taken back under the negative-balance rule; usually none. */
  readonly debts: readonly PlayerDebt[];
  /** Open and in-progress cases of the player's orders, newest first, at most a page of them. */
  readonly exceptions: readonly PlayerException[];
  readonly exceptionCount: number;
  readonly storeEvents: PlayerStoreEvents;
  readonly orders: {
    readonly rows: readonly Omit<PlayerOrder, "cursor">[];
    /** No cursor was asked for (or none that reads as one): the newest orders. */
    readonly firstPage: boolean;
    /** The cursors of the neighbouring pages, as the address carries them (`?before=`, `?after=`). */
    readonly newer: string | null;
    readonly older: string | null;
  };
}

/** The page's cursor as its address gives it: `after` (older orders) wins over `before` (newer ones). */
export interface PlayerPageCursor {
  readonly after?: string | undefined;
  readonly before?: string | undefined;
}

/**
 * The player page of `playerId` in `tenantId` (a product the caller's scope rule has already
 * admitted). A player is named by the orders that carry their id: one with none is an empty page, as
 * it always was. A cursor that does not read as one is the newest page.
 */
export async function readPlayerPage(tenantId: string, playerId: string, cursor: PlayerPageCursor): Promise<PlayerPageModel> {
  const after = decodePlayerCursor(cursor.after);
  const before = after ? undefined : decodePlayerCursor(cursor.before);
  // One after another: a connection runs one statement at a time anyway.
  const read = await snapshot(async ({ client, prisma }) => {
    const product = await prisma.tenant.findUnique({ where: { id: tenantId }, select: { name: true, settings: { select: { refundWatchPercent: true } } } });
    const summary = await playerSummary(tenantId, playerId, { db: client });
    const storeEvents = await playerStoreEvents(tenantId, playerId, client);
    const debts = await playerDebts(tenantId, playerId, client);
    const page = await playerOrders({ tenantId, playerId, after, before }, client);
    return { product, summary, storeEvents, debts, page };
  });
  const { product, summary, storeEvents, debts, page } = read;
  return {
    productName: product?.name ?? null,
    money: summary.money.map((m) => ({ ...m, rate: refundRate(m) })),
    firstOrderAt: summary.firstOrderAt,
    lastOrderAt: summary.lastOrderAt,
    refundWatch: refundWatch(product?.settings?.refundWatchPercent ?? null, summary.money),
    debts,
    exceptions: summary.exceptions,
    exceptionCount: summary.exceptionCount,
    storeEvents,
    orders: {
      rows: page.rows.map(({ cursor: _cursor, ...row }) => row),
      firstPage: !after && !before,
      newer: page.newer ? encodePlayerCursor(page.newer) : null,
      older: page.older ? encodePlayerCursor(page.older) : null,
    },
  };
}

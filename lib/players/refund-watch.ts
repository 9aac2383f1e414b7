// The refund watch list (issue 16, item 6): a tenant may name a refunded share of spend (a whole
// percentage) at or above which a player is on the list, and agents see it on every order of theirs.
// Pure: the player's money per currency (lib/players/queries/player-summary.ts) against the threshold.

export interface RefundWatch {
  /** The tenant's threshold, a whole percentage. */
  readonly threshold: number;
  /** The currency whose refunded share is the highest of those at or above the threshold. */
  readonly currency: string;
  /** Refunded ÷ paid in that currency, as a fraction: the UI formats it. */
  readonly share: number;
}

export interface WatchedMoney {
  readonly currency: string;
  /** Minor units. */
  readonly paid: number;
  readonly refunded: number;
}

/**
 * Whether the player is on the watch list, and why: null when the tenant keeps no list (threshold
 * null) or no currency's share reaches it. Compared in integers (refunded × 100 ≥ threshold × paid),
 * so a share exactly at the threshold is on the list whatever a float would make of it.
 */
export function refundWatch(threshold: number | null, money: readonly WatchedMoney[]): RefundWatch | null {
  if (threshold === null) return null;
  const watched = money
    .filter((m) => m.paid > 0 && m.refunded * 100 >= threshold * m.paid)
    .map((m) => ({ threshold, currency: m.currency, share: m.refunded / m.paid }))
    .sort((a, b) => b.share - a.share);
  return watched[0] ?? null;
}

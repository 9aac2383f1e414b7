// The pages that name a record in their address, as proxy.ts and the record shells' views both read
// them, and the one way a link to each is written. Pure.
import { isLocale } from "@/lib/i18n/locales";
import { decodePathSegment } from "@/lib/path-segment";

/** A page that names a record in its address: the address's pattern, its segments' names, its shell. */
export interface RecordPage<Names extends readonly string[]> {
  readonly address: RegExp;
  readonly names: Names;
  readonly shell: string;
}

/**
 * Pages that name a record in their address, each answered by one shell for every record (proxy.ts
 * rewrites the address to `shell`); the shell's view reads the record back from the address.
 */
export const RECORD_PAGES = {
  order: { address: /^\/orders\/([^/]+)\/([^/]+)\/?$/, names: ["tenant", "orderNo"], shell: "/orders/_/_" },
  player: { address: /^\/players\/([^/]+)\/([^/]+)\/?$/, names: ["tenant", "playerId"], shell: "/players/_/_" },
  refundReview: { address: /^\/refund-reviews\/([^/]+)\/?$/, names: ["id"], shell: "/refund-reviews/_" },
  delivery: { address: /^\/deliveries\/([^/]+)\/?$/, names: ["id"], shell: "/deliveries/_" },
  // /admin/users/new is a page of its own.
  staffUser: { address: /^\/admin\/users\/(?!new\/?$)([^/]+)\/?$/, names: ["id"], shell: "/admin/users/_" },
} as const satisfies Record<string, RecordPage<readonly string[]>>;

/**
 * The record a page's address names in `pathname`, each segment decoded, by name; null when the
 * address is not the page's, or a segment names nothing (an escape that does not decode, a NUL).
 */
export function recordOfPath<const Names extends readonly string[]>(page: RecordPage<Names>, pathname: string): Record<Names[number], string> | null {
  // At build, each shell is rendered at its own address under its locale (/en/orders/_/_).
  const [, first, ...rest] = pathname.split("/");
  const match = page.address.exec(isLocale(first) ? `/${rest.join("/")}` : pathname);
  if (!match) return null;
  const record: Record<string, string> = {};
  for (const [i, name] of page.names.entries()) {
    const segment = decodePathSegment(match[i + 1] ?? "");
    if (!segment) return null;
    record[name] = segment;
  }
  return record as Record<Names[number], string>;
}

/** The page at `base` for a record: each of its segments encoded, so recordOfPath reads back the same record. */
function address(base: string, ...segments: readonly (string | number)[]): string {
  return [base, ...segments.map((segment) => encodeURIComponent(String(segment)))].join("/");
}

/** An order's page. */
export const orderHref = (tenantId: string, orderNo: string) => address("/orders", tenantId, orderNo);
/** A player's page in a product. */
export const playerHref = (tenantId: string, playerId: string) => address("/players", tenantId, playerId);
/** A store refund review's page. */
export const refundReviewHref = (id: number | string) => address("/refund-reviews", id);
/** An outbox message's page. */
export const deliveryHref = (id: number | string) => address("/deliveries", id);
/** A staff member's page. */
export const staffUserHref = (id: number | string) => address("/admin/users", id);

import { BlockList, isIP } from "node:net";

// Who is calling, as far as the throttles may believe it. Read here and nowhere else.
//
// Next.js gives route handlers (and next-auth's authorize()) no socket: no peer address at all. It
// only fills X-Forwarded-For with the peer address when the client did not send one — and keeps
// the client's header when it did, so the header alone proves nothing: any client can name any
// address. Hence:
// - TRUSTED_PROXIES unset (the default): the address is unknown (null). No client-supplied header
//   is believed, so no throttle can be bypassed by sending one; the throttles that need an address
//   are simply not applied (lib/auth/throttle.ts says what holds instead).
// - TRUSTED_PROXIES="10.0.0.0/8, ::1, …" (addresses or CIDR ranges of the reverse proxies in front
//   of the app): the client is the right-most X-Forwarded-For entry that is not one of them. This
//   is only sound when the app is reachable through those proxies alone (they append the peer they
//   saw); the setting is that promise, and the README says so.

const HEADER = "x-forwarded-for";

type HeaderBag = Headers | Record<string, string | string[] | undefined> | undefined;

interface TrustedProxies {
  readonly list: BlockList;
  readonly empty: boolean;
}

let cached: { readonly setting: string; readonly proxies: TrustedProxies } | null = null;

/** The TRUSTED_PROXIES setting, parsed once per value. A malformed entry is a configuration error. */
export function trustedProxies(setting: string | undefined = process.env.TRUSTED_PROXIES): TrustedProxies {
  const value = (setting ?? "").trim();
  if (cached?.setting === value) return cached.proxies;
  const list = new BlockList();
  const entries = value.split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
      throw new Error(`TRUSTED_PROXIES: «${entry}» is not an IP address or CIDR range`);
    }
    list.addSubnet(address!, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  const proxies = { list, empty: entries.length === 0 };
  cached = { setting: value, proxies };
  return proxies;
}

/** One X-Forwarded-For entry as a bare address ("[::1]:80" → "::1", "::ffff:10.0.0.1" → "10.0.0.1"), or null. */
function bareAddress(entry: string): string | null {
  let value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  const mapped = /^::ffff:([\d.]+)$/i.exec(value);
  if (mapped) value = mapped[1]!;
  return isIP(value) ? value.toLowerCase() : null;
}

function isTrusted(address: string, proxies: TrustedProxies): boolean {
  return proxies.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

function headerValues(headers: HeaderBag): string[] {
  if (!headers) return [];
  if (headers instanceof Headers) {
    const value = headers.get(HEADER);
    return value === null ? [] : [value];
  }
  const value = headers[HEADER];
  return value === undefined ? [] : [value].flat();
}

/**
 * The caller's address, or null when it cannot be known (no trusted proxies configured, no header,
 * or a hop the proxies did not vouch for that is not an address).
 */
export function clientAddress(headers: HeaderBag, proxies: TrustedProxies = trustedProxies()): string | null {
  if (proxies.empty) return null;
  const hops = headerValues(headers)
    .join(",")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  // Right to left: each trusted proxy vouches for the hop before it; the first hop no proxy of
  // ours added is the client. Everything further left was written by the client and is ignored.
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = bareAddress(hops[i]!);
    if (address === null) return null;
    if (!isTrusted(address, proxies) || i === 0) return address;
  }
  return null;
}

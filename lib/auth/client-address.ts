import { BlockList, isIP } from "node:net";

// Who is calling, as far as the throttles may believe it. Decided once per request, by the web
// process's listener (lib/api/serve.ts), which owns the socket; read here and nowhere else.
//
// - The socket's peer is the caller, unless it is one of TRUSTED_PROXIES ("10.0.0.0/8, ::1, …":
//   the balancers and reverse proxies in front of the app). A forwarded header from anyone else is
//   ignored: a client can write any X-Forwarded-For it likes, but not its own socket address.
// - When the peer is a trusted proxy, X-Forwarded-For is read from the right: each trusted proxy
//   vouches for the hop before it, and the first hop that no proxy of ours added is the client.
//
// The listener writes the answer into CLIENT_ADDRESS_HEADER after deleting whatever copy the client
// sent, so route handlers, server actions and next-auth's authorize() (which see no socket) read it
// from there. Express ("trust proxy"), Django and Rails decide it the same way.

/** The request header that carries the caller's address from the listener to the app. */
export const CLIENT_ADDRESS_HEADER = "x-orderops-client-address";

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

/** One address as written by a socket or a proxy, bare ("[::1]:80" → "::1", "::ffff:10.0.0.1" → "10.0.0.1"), or null. */
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
  return !proxies.empty && proxies.list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The caller's address for a request that arrived from `peer` (the socket's remote address) with
 * these X-Forwarded-For values, or null when it cannot be known (no peer — the socket is gone — or
 * a hop a trusted proxy vouched for that is not an address).
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | readonly string[] | undefined, proxies: TrustedProxies = trustedProxies()): string | null {
  if (!peer) return null;
  const forwarded = [forwardedFor ?? []]
    .flat()
    .join(",")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const hops = [...forwarded, peer];
  // Right to left, starting at the socket: a trusted hop vouches for the one before it.
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = bareAddress(hops[i]!);
    if (address === null) return null;
    if (!isTrusted(address, proxies) || i === 0) return address;
  }
  return null;
}

/** The caller's address as the listener decided it (resolveClientAddress), or null when unknown. */
export function clientAddress(headers: HeaderBag): string | null {
  if (!headers) return null;
  const value = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : [headers[CLIENT_ADDRESS_HEADER]].flat()[0];
  return value && isIP(value) ? value : null;
}

import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { contentSecurityPolicy, newNonce, servedOverHttps, STRICT_TRANSPORT_SECURITY } from "@/lib/http/security-headers";
import STATIC_SECURITY_HEADERS from "@/lib/http/static-headers.json" with { type: "json" };

// The integration API's machine-to-machine routes, served straight from Node's HTTP server in each
// web process (lib/process/web-process.ts) instead of through Next's router: a payment channel's
// `pay` costs Next several times what the ledger itself costs (bench/ANALYSIS.md, issue 15). The
// routes are the same files Next serves (app/api/v1/**/route.ts, found on disk, so a new one cannot
// be forgotten here), built by the same builders (lib/api/route.ts), with the same tests; only the
// handlers that need nothing of Next are taken — an API key's or a store's signature's routes.
// Everything else (the console, sign-in, the routes a staff session may call) goes to Next, and so
// does every API request in `npm run dev`.
//
// What proxy.ts and next.config.mjs do for every response is done here too: the request id (the
// caller's, else a new one) on the request and the response, the fixed security headers, the same
// Content-Security-Policy, HSTS over HTTPS, a 404 for a path whose escapes do not decode. Next
// fills X-Forwarded-For with the peer when the caller sent none (lib/auth/client-address.ts relies
// on it); so does this.

type Params = Record<string, string>;
type RouteHandler = ((request: Request, context: { params: Promise<Params> }) => Promise<Response>) & { readonly auth?: string };

/** The builders whose handlers read only the request: no session cookie, no Next request context. */
const SERVED_AUTH = new Set(["api-key", "store-signature"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface ApiRoute {
  /** The route's file, relative to the project, e.g. app/api/v1/orders/[orderNo]/events/route.ts. */
  readonly file: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handlers: ReadonlyMap<string, RouteHandler>;
}

/** Every app/api/v1 route file with at least one handler served here, and those handlers by method. */
export async function loadApiRoutes(root: string = process.cwd()): Promise<ApiRoute[]> {
  const dir = path.join(root, "app", "api", "v1");
  const files = (await readdir(dir, { recursive: true })).filter((f) => path.basename(f) === "route.ts").sort();
  const routes: ApiRoute[] = [];
  for (const file of files) {
    const exports = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
    const handlers = new Map<string, RouteHandler>();
    for (const method of METHODS) {
      const handler = exports[method] as RouteHandler | undefined;
      if (typeof handler === "function" && SERVED_AUTH.has(handler.auth ?? "")) handlers.set(method, handler);
    }
    if (handlers.size === 0) continue;
    const segments = path.dirname(file).split(path.sep).filter((s) => s !== ".");
    const names = segments.flatMap((s) => (s.startsWith("[") ? [s.slice(1, -1)] : []));
    const source = segments.map((s) => (s.startsWith("[") ? "([^/]+)" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
    routes.push({ file: path.join("app", "api", "v1", file), pattern: new RegExp(`^/api/v1/${source}$`), names, handlers });
  }
  return routes;
}

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A Node request listener that answers the requests `routes` serve and hands every other one to
 * `fallback` (Next's request handler) untouched.
 */
export function apiListener(routes: readonly ApiRoute[], fallback: NodeListener): NodeListener {
  // Hono's Node adapter turns the Node request into a Fetch Request and the handler's Response back,
  // without replacing the global Request and Response that Next uses in the same process.
  const matched = new WeakMap<object, Matched>();
  const listener = getRequestListener(
    (request, { incoming }) => {
      const { handler, params } = matched.get(incoming)!;
      return handler(request, { params: Promise.resolve(params) });
    },
    { overrideGlobalObjects: false },
  );
  return (req, res) => {
    const route = match(routes, req);
    if (!route) return fallback(req, res);
    const requestId = first(req.headers["x-request-id"]) || randomUUID();
    req.headers["x-request-id"] = requestId;
    req.headers["x-forwarded-for"] ??= req.socket.remoteAddress;
    res.setHeader("x-request-id", requestId);
    for (const { key, value } of STATIC_SECURITY_HEADERS) res.setHeader(key, value);
    const https = servedOverHttps(req.headers);
    res.setHeader("content-security-policy", contentSecurityPolicy(newNonce(), { dev: false, https }));
    if (https) res.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    if (route === "malformed") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not-found", message: "Not found." } }));
      return;
    }
    matched.set(req, route);
    void listener(req, res);
  };
}

interface Matched {
  readonly handler: RouteHandler;
  readonly params: Params;
}

/** The route and its decoded parameters; "malformed" for a path whose escapes do not decode. */
function match(routes: readonly ApiRoute[], req: IncomingMessage): Matched | "malformed" | null {
  const url = req.url ?? "/";
  if (!url.startsWith("/api/v1/")) return null;
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const handler = route.handlers.get(req.method === "HEAD" ? "GET" : (req.method ?? ""));
    // A method this process does not serve here (405, OPTIONS) is Next's to answer, as before.
    if (!handler) return null;
    const params: Params = {};
    try {
      route.names.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1]!)));
    } catch {
      return "malformed";
    }
    return { handler, params };
  }
  return null;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

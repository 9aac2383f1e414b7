import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The routes answered by the web process's own listener (lib/process/listener.ts) instead of through
// Next's router: the integration API's machine-to-machine routes — a payment channel's `pay` costs
// Next several times what the ledger itself costs (bench/ANALYSIS.md, issue 15) — and the console's
// JSON routes, which every open page polls and reads its read model from (issue 25). They are the
// same route files Next serves (app/api/v1/**/route.ts and app/api/console/**/route.ts, built by
// lib/api/route.ts's builders, with the same tests); only the handlers that need nothing of Next are
// taken — an API key's, a store signature's or a staff session's (read from the request's cookie).
// Everything else (pages, server actions, sign-in) goes to Next.
//
// Where the handlers come from:
// - production: Next's own build of those files (routesFromBuild), the very modules Next loads when
//   it serves a route, so a web process holds one copy of lib/ — not Next's plus a second graph;
// - `npm run dev` and the tests: the source files (routesFromSource).
// Either way the listener matches and calls them with the same code.

type Params = Record<string, string>;
export type RouteHandler = ((request: Request, context: { params: Promise<Params> }) => Promise<Response>) & { readonly auth?: string };

/** The builders whose handlers read only the request: no Next request context. */
const SERVED_AUTH = new Set(["api-key", "store-signature", "staff-session"]);
/** The folders under app/ whose routes are served here. */
const SERVED_DIRS = [
  ["api", "v1"],
  ["api", "console"],
] as const;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export interface ApiRoute {
  /** The route's file under app/, e.g. app/api/v1/orders/[orderNo]/events/route.ts. */
  readonly file: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handlers: ReadonlyMap<string, RouteHandler>;
}

/** A route from its directory's segments under app/ and its module's exports; null when it serves nothing here. */
function apiRoute(segments: readonly string[], exports: Record<string, unknown>): ApiRoute | null {
  const handlers = new Map<string, RouteHandler>();
  for (const method of METHODS) {
    const handler = exports[method] as RouteHandler | undefined;
    if (typeof handler === "function" && SERVED_AUTH.has(handler.auth ?? "")) handlers.set(method, handler);
  }
  if (handlers.size === 0) return null;
  const names = segments.flatMap((s) => (s.startsWith("[") ? [s.slice(1, -1)] : []));
  const source = segments.map((s) => (s.startsWith("[") ? "([^/]+)" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  return { file: path.join("app", ...segments, "route.ts"), pattern: new RegExp(`^/${source}$`), names, handlers };
}

/** Every route file under the served folders with a handler served here, imported from source (dev and tests). */
export async function routesFromSource(root: string = process.cwd()): Promise<ApiRoute[]> {
  const routes: ApiRoute[] = [];
  for (const base of SERVED_DIRS) {
    const dir = path.join(root, "app", ...base);
    const files = (await readdir(dir, { recursive: true })).filter((f) => path.basename(f) === "route.ts").sort();
    for (const file of files) {
      const exports = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
      const route = apiRoute([...base, ...path.dirname(file).split(path.sep).filter((s) => s !== ".")], exports);
      if (route) routes.push(route);
    }
  }
  return routes;
}

/** What a compiled app route exports: Next's route module, whose `userland` is the route file's own exports. */
interface CompiledRoute {
  readonly routeModule?: { ensureUserland?(): Promise<void>; readonly userland?: Record<string, unknown> };
}

/**
 * The same routes from Next's production build in `distDir`: every /api/v1 route in its
 * app-paths-manifest.json, required as Next requires it, and its handlers taken from the route
 * module's `userland`. That shape is Next's (pinned exactly in package.json): when it changes, this
 * throws at start with the route's name instead of serving without the API.
 */
export async function routesFromBuild(distDir: string): Promise<ApiRoute[]> {
  const server = path.join(distDir, "server");
  const manifest = JSON.parse(await readFile(path.join(server, "app-paths-manifest.json"), "utf8")) as Record<string, string>;
  const require = createRequire(path.join(server, "noop.js"));
  const routes: ApiRoute[] = [];
  for (const [page, file] of Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b))) {
    if (!SERVED_DIRS.some((base) => page.startsWith(`/${base.join("/")}/`)) || !page.endsWith("/route")) continue;
    const { routeModule } = require(path.join(server, file)) as CompiledRoute;
    if (typeof routeModule?.ensureUserland !== "function") throw new Error(`${page}: Next's build no longer exposes routeModule.ensureUserland()`);
    await routeModule.ensureUserland();
    const exports = routeModule.userland;
    if (!exports) throw new Error(`${page}: Next's route module has no userland exports`);
    // "/api/v1/orders/[orderNo]/events/route" → ["api", "v1", "orders", "[orderNo]", "events"]; route groups drop out of URLs.
    const segments = page.split("/").slice(1, -1).filter((s) => !(s.startsWith("(") && s.endsWith(")")));
    const route = apiRoute(segments, exports);
    if (route) routes.push(route);
  }
  if (routes.length === 0) throw new Error(`no integration API routes in ${server}: is it a complete build?`);
  return routes;
}

export interface Matched {
  readonly handler: RouteHandler;
  readonly params: Params;
}

/**
 * The route for a request and its decoded parameters; "malformed" for a path under a route whose
 * escapes do not decode; null for anything not served here (Next answers it, 405 and OPTIONS too).
 */
export function matchApiRoute(routes: readonly ApiRoute[], method: string | undefined, url: string | undefined): Matched | "malformed" | null {
  const target = url ?? "/";
  if (!SERVED_DIRS.some((base) => target.startsWith(`/${base.join("/")}/`))) return null;
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const handler = route.handlers.get(method === "HEAD" ? "GET" : (method ?? ""));
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

import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { staffOfRequest } from "@/lib/auth/current-staff";
import { can, type Permission } from "@/lib/auth/permissions";
import { resolveScope, type ScopeRule } from "@/lib/auth/scope";
import { actorOf, type Staff } from "@/lib/auth/staff";
import type { Queryable } from "@/lib/db/sql";
import type { Tx } from "@/lib/db/transaction";
import { RETRY_AFTER_SECONDS } from "@/lib/db/unavailable";
import { AppError, HTTP_STATUS } from "@/lib/errors";
import { localeOfRequest } from "@/lib/i18n/browser-locale";
import type { Locale } from "@/lib/i18n/locales";
import { toPublicError } from "@/lib/i18n/public-error";
import { logger } from "@/lib/log";
import type { OrderSnapshot } from "@/lib/orders/types";
import { fieldProblems, hasNul, nulProblems } from "@/lib/validation";
import { authenticateApiRequest, authenticateApiRequestForOrder, KeyRefusedInTransaction, refuseKey, withRetryAfter } from "./key-throttle";
import type { ApiCaller } from "./keys";

export const MAX_BODY_BYTES = 64 * 1024;

type Params = Record<string, string | string[]>;
/** The integration API's handlers take a plain Fetch Request: lib/api/serve.ts serves them without Next. */
type Handler<R extends Request = NextRequest> = (request: R, context: { params: Promise<Params> }) => Promise<Response>;
/** A console route: the staff permission it needs and what it acts on. */
export type RouteHandler = Handler & { readonly permission: Permission; readonly scopeKind: string; readonly auth: "staff-session" };
/** An integration API route: callers authenticate with a tenant's API key. */
export type ApiRouteHandler = Handler<Request> & { readonly auth: "api-key" };

/** What a console route's scope rule reads: the path's parameters and the parsed input. */
export interface RouteRequest<T> {
  readonly params: Params;
  readonly input: T;
}

export interface StaffRouteContext<T, R> extends RouteRequest<T> {
  readonly staff: Staff;
  readonly actor: string;
  readonly resource: R;
  readonly request: NextRequest;
  readonly log: typeof logger;
}

/**
 * The one way to write a console route handler: a live staff session, the named permission, zod
 * input (query string for GET, a JSON body otherwise), then the scope rule — before the handler
 * sees anything. Every error is `{ error: { code, message } }` with its status, in the caller's
 * language; never a stack trace.
 */
export function staffRoute<S extends z.ZodType, R>(
  spec: { readonly name: string; readonly permission: Permission; readonly input: S; readonly scope: ScopeRule<RouteRequest<z.output<S>>, R> },
  handle: (ctx: StaffRouteContext<z.output<S>, R>) => Promise<unknown>,
): RouteHandler {
  const handler = async (request: NextRequest, context: { params: Promise<Params> }): Promise<Response> => {
    const { requestId, log } = requestLog(request, spec.name);
    let locale: Locale | undefined;
    try {
      const staff = await staffOfRequest(request.headers);
      if (!staff) throw new AppError("unauthenticated");
      locale = staff.locale;
      if (!can(staff.role, spec.permission)) {
        await audit({ actor: actorOf(staff), action: "access.denied", target: spec.name, detail: { permission: spec.permission } });
        throw new AppError("forbidden");
      }
      if (crossSite(request)) throw new AppError("forbidden");
      const input = await parseInput(spec.input, request);
      const params = await pathParams(context);
      const resource = await resolveScope(spec.scope, { params, input }, staff);
      const body = await handle({ staff, actor: actorOf(staff), resource, input, params, request, log });
      return body instanceof Response ? body : NextResponse.json(body);
    } catch (error) {
      return errorResponse(error, requestId, log, locale ?? localeOfRequest(request.headers));
    }
  };
  // Reads nothing of Next (the session from the request's own cookie): the web process's listener serves it.
  return Object.assign(handler, { permission: spec.permission, scopeKind: spec.scope.kind, auth: "staff-session" as const });
}

/**
 * A console route that changes something (any method but GET/HEAD) sent by a page of another site:
 * the session cookie rides along with a cross-site request, so the browser's own word on where it
 * came from decides — Sec-Fetch-Site, else the Origin's host against the Host. Server actions get
 * this check from Next; these routes are served by the web process's listener without Next. A
 * client that is no browser sends neither header and is not a cross-site page.
 */
function crossSite(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin";
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    return new URL(origin).host !== (request.headers.get("host") ?? new URL(request.url).host);
  } catch {
    // "null" (a sandboxed frame, a redirect across sites) or garbage: not this site.
    return true;
  }
}

export interface ApiRouteContext<T> {
  readonly caller: ApiCaller;
  /** How the caller is named in order_transitions.actor and grants.actor. */
  readonly actor: string;
  readonly input: T;
  readonly params: Params;
  readonly request: Request;
  readonly log: typeof logger;
}

/**
 * The one way to write an integration API route: a valid, unrevoked API key (the tenant always
 * comes from it), then zod input. Same error shape as the console routes, in English.
 */
export function apiRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly input: S },
  handle: (ctx: ApiRouteContext<z.output<S>>) => Promise<Response>,
): ApiRouteHandler {
  const handler = async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    const { requestId, log } = requestLog(request, spec.name);
    try {
      const caller = await authenticateApiRequest(request.headers);
      const params = await pathParams(context);
      const input = await parseInput(spec.input, request);
      return await handle({ ...keyCaller(caller, log), input, params, request });
    } catch (error) {
      return withRetryAfter(errorResponse(error, requestId, log, "en"), error);
    }
  };
  return Object.assign(handler, { auth: "api-key" as const });
}

/** The caller of a key-authenticated route as its handler sees it: the key, its actor name, a log naming its tenant. */
function keyCaller(caller: ApiCaller, log: typeof logger): Pick<ApiRouteContext<unknown>, "caller" | "actor" | "log"> {
  return { caller, actor: `apikey:${caller.tenantId}/${caller.keyName}`, log: log.child({ tenant: caller.tenantId }) };
}

export interface ApiOrderRouteContext<T> extends ApiRouteContext<T> {
  /** The order the path's {orderNo} names, within the key's tenant. */
  readonly order: OrderSnapshot;
}

/**
 * apiRoute() for the routes whose path names an order ({orderNo}): the key and the order are looked
 * up in one statement (authenticateApiKeyForOrder), and the handler gets the order. Answers as
 * apiRoute() would, then 404 for an order the key's tenant does not have: 401/429 for the key first,
 * then 400 for the input, then 404.
 */
export function apiOrderRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly input: S },
  handle: (ctx: ApiOrderRouteContext<z.output<S>>) => Promise<Response>,
): ApiRouteHandler {
  return orderRoute(spec, async (request, context, log) => handle(await keyInputAndOrder(() => parseInput(spec.input, request), request, context, log)));
}

export interface ApiOrderLockContext<T> {
  readonly log: typeof logger;
  /**
   * The first statement of the handler's transaction: checks the key and locks the order the path
   * names, in one round trip, and answers as apiOrderRoute() does (401/429, then 400, then 404) by
   * throwing, which rolls the transaction back.
   */
  readonly lockOrder: (tx: Tx) => Promise<ApiOrderRouteContext<T>>;
}

/**
 * apiOrderRoute() for a route that changes the order (POST …/events): the handler opens the
 * transaction, and the key lookup is its lock step (transitLocking), one round trip fewer a call.
 */
export function apiOrderLockRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly input: S },
  handle: (ctx: ApiOrderLockContext<z.output<S>>) => Promise<Response>,
): ApiRouteHandler {
  return orderRoute(spec, async (request, context, log) => {
    // The body is read whole before the transaction begins, so a slow client never holds a row lock.
    const input = await readFirst(spec.input, request);
    try {
      return await handle({ log, lockOrder: (tx) => keyInputAndOrder(input, request, context, log, tx.client) });
    } catch (error) {
      if (error instanceof KeyRefusedInTransaction) return refuseKey(request.headers, error);
      throw error;
    }
  });
}

function orderRoute(
  spec: { readonly name: string },
  serve: (request: Request, context: { params: Promise<Params> }, log: typeof logger) => Promise<Response>,
): ApiRouteHandler {
  const handler = async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    const { requestId, log } = requestLog(request, spec.name);
    try {
      return await serve(request, context, log);
    } catch (error) {
      return withRetryAfter(errorResponse(error, requestId, log, "en"), error);
    }
  };
  return Object.assign(handler, { auth: "api-key" as const });
}

/** The request's input, read and parsed in full; a bad one throws where it is judged (after the key). */
async function readFirst<S extends z.ZodType>(schema: S, request: Request): Promise<() => z.output<S>> {
  try {
    const input = await parseInput(schema, request);
    return () => input;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

/**
 * The key, the input and the order, judged in that order; with `lockIn` (a transaction's
 * connection), the order is locked there.
 */
async function keyInputAndOrder<T>(
  input: () => T | Promise<T>,
  request: Request,
  context: { params: Promise<Params> },
  log: typeof logger,
  lockIn?: Queryable,
): Promise<ApiOrderRouteContext<T>> {
  // A path no order can have (a NUL) is still judged on its key first, then answered 404.
  const params = await pathParams(context).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not-found") return null;
    throw error;
  });
  const orderNo = params ? String(params.orderNo) : null;
  const { caller, order } =
    orderNo === null ? { caller: await authenticateApiRequest(request.headers), order: null } : await authenticateApiRequestForOrder(request.headers, orderNo, lockIn);
  if (!params) throw new AppError("not-found");
  const parsed = await input();
  if (!order) throw new AppError("not-found", { kind: "order-not-found", orderNo: orderNo! });
  return { ...keyCaller(caller, log), input: parsed, params, request, order };
}

/**
 * A route handler's path parameters, as Next decoded them (it does, for route handlers; a malformed
 * escape never gets this far: proxy.ts answers it 404). A NUL cannot name anything we store: 404.
 */
async function pathParams(context: { params?: Promise<Params> }): Promise<Params> {
  // Routes without a dynamic segment get no params at all from Next.
  const params = (await context.params) ?? {};
  if (Object.values(params).some((v) => [v].flat().some(hasNul))) throw new AppError("not-found");
  return params;
}

/** A route for integrators and for the console alike: any valid API key, or a staff session with the permission. */
export type KeyOrStaffRouteHandler = Handler & { readonly auth: "api-key-or-staff"; readonly permission: Permission; readonly scopeKind: "none" };

export interface KeyOrStaffRouteContext<T> {
  /** Who is calling: the key's tenant, or the staff member. */
  readonly caller: { readonly kind: "api-key"; readonly key: ApiCaller } | { readonly kind: "staff"; readonly staff: Staff };
  readonly input: T;
  readonly request: NextRequest;
  readonly log: typeof logger;
}

/**
 * The one way to write a route that both integrators and staff read — tenant-free by construction
 * (no scope rule, no path parameters): the API's own description. A request that carries an
 * Authorization header is judged by its key alone (a bad key is 401 even beside a live session, and
 * counts towards the key throttle); otherwise by the staff session and the permission, as staffRoute.
 */
export function apiKeyOrStaffRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly permission: Permission; readonly input: S },
  handle: (ctx: KeyOrStaffRouteContext<z.output<S>>) => Promise<Response>,
): KeyOrStaffRouteHandler {
  const handler = async (request: NextRequest): Promise<Response> => {
    const { requestId, log } = requestLog(request, spec.name);
    const byKey = request.headers.has("authorization");
    let locale: Locale | undefined = byKey ? "en" : undefined;
    try {
      let caller: KeyOrStaffRouteContext<unknown>["caller"];
      if (byKey) {
        caller = { kind: "api-key", key: await authenticateApiRequest(request.headers) };
      } else {
        const staff = await staffOfRequest(request.headers);
        if (!staff) throw new AppError("unauthenticated");
        locale = staff.locale;
        if (!can(staff.role, spec.permission)) {
          await audit({ actor: actorOf(staff), action: "access.denied", target: spec.name, detail: { permission: spec.permission } });
          throw new AppError("forbidden");
        }
        caller = { kind: "staff", staff };
      }
      return await handle({ caller, input: await parseInput(spec.input, request), request, log });
    } catch (error) {
      return withRetryAfter(errorResponse(error, requestId, log, locale ?? localeOfRequest(request.headers)), error);
    }
  };
  return Object.assign(handler, { auth: "api-key-or-staff" as const, permission: spec.permission, scopeKind: "none" as const });
}

/** The request's id (the caller's x-request-id, else a new one) and a log that names it and the route. */
function requestLog(request: Request, route: string) {
  const requestId = request.headers.get("x-request-id") ?? randomUUID();
  return { requestId, log: logger.child({ route, requestId }) };
}

async function parseInput<S extends z.ZodType>(schema: S, request: Request): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readInput(request));
  if (!parsed.success) throw new AppError("invalid-input", undefined, { fields: fieldProblems(parsed.error) });
  return parsed.data;
}

export async function readInput(request: Request): Promise<unknown> {
  const input = await readRawInput(request);
  const nul = nulProblems(input);
  if (nul) throw new AppError("invalid-input", undefined, { fields: nul });
  return input;
}

async function readRawInput(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return Object.fromEntries(new URL(request.url).searchParams);
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) throw new AppError("unsupported-media-type");
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw new AppError("payload-too-large");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new AppError("payload-too-large");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid-input", { kind: "invalid-json" });
  }
}

export function errorResponse(error: unknown, requestId: string, log: typeof logger, locale: Locale, extra: Record<string, unknown> = {}): Response {
  const publicError = toPublicError(error, requestId, locale);
  if (publicError.code === "internal") log.error({ err: error }, "route failed");
  if (publicError.code === "unavailable") log.warn({ err: error }, "database unavailable; answered 503");
  const { problem: _problem, ...shown } = publicError;
  // Says when to come back, so integrators' clients retry the outage instead of failing the call.
  const headers = publicError.code === "unavailable" ? { "retry-after": String(RETRY_AFTER_SECONDS) } : undefined;
  return NextResponse.json({ error: shown, ...extra }, { status: HTTP_STATUS[publicError.code], headers });
}

/** A store's notification route: no key or session — the store's signature on the body is the credential. */
export type StoreRouteHandler = Handler<Request> & { readonly auth: "store-signature" };

export interface StoreRouteContext<T> {
  readonly input: T;
  readonly params: Params;
  /** The request's headers: a store may carry its credential there (Google's Pub/Sub push: a Bearer OIDC token). */
  readonly headers: Headers;
  readonly log: typeof logger;
}

/**
 * The one way to write a route a store (App Store, Google Play) calls: zod input from a bounded JSON
 * body, the same error shape as every route, in English. The handler must verify the store's
 * signature before it believes anything in the body, and refuse (401) what does not verify; the
 * builder marks the route so lib/auth/entrypoints.integration.test.ts holds it to exactly that.
 */
export function storeRoute<S extends z.ZodType>(spec: { readonly name: string; readonly input: S }, handle: (ctx: StoreRouteContext<z.output<S>>) => Promise<Response>): StoreRouteHandler {
  const handler = async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    const { requestId, log } = requestLog(request, spec.name);
    try {
      const params = await pathParams(context);
      const input = await parseInput(spec.input, request);
      return await handle({ input, params, headers: request.headers, log });
    } catch (error) {
      return errorResponse(error, requestId, log, "en");
    }
  };
  return Object.assign(handler, { auth: "store-signature" as const });
}

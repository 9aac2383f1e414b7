import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { currentStaff } from "@/lib/auth/current-staff";
import { can, type Permission } from "@/lib/auth/permissions";
import { actorOf, type Staff } from "@/lib/auth/staff";
import { AppError, HTTP_STATUS, toPublicError } from "@/lib/errors";
import { authenticateApiKey, type ApiCaller } from "./keys";
import { logger } from "@/lib/log";

export const MAX_BODY_BYTES = 64 * 1024;

type Params = Record<string, string | string[]>;
type Handler = (request: NextRequest, context: { params: Promise<Params> }) => Promise<Response>;
/** A console route: the staff permission it needs. */
export type RouteHandler = Handler & { readonly permission: Permission };
/** An integration API route: callers authenticate with a tenant's API key. */
export type ApiRouteHandler = Handler & { readonly auth: "api-key" };

export interface StaffRouteContext<T> {
  readonly staff: Staff;
  readonly actor: string;
  readonly input: T;
  readonly params: Params;
  readonly request: NextRequest;
  readonly log: typeof logger;
}

/**
 * The one way to write a console route handler: a live staff session, the named permission, then
 * zod input (query string for GET, a JSON body otherwise) — before the handler sees anything.
 * Every error is `{ error: { code, message } }` with its status; never a stack trace.
 */
export function staffRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly permission: Permission; readonly input: S },
  handle: (ctx: StaffRouteContext<z.output<S>>) => Promise<unknown>,
): RouteHandler {
  const handler = async (request: NextRequest, context: { params: Promise<Params> }): Promise<Response> => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    const log = logger.child({ route: spec.name, requestId });
    try {
      const staff = await currentStaff();
      if (!staff) throw new AppError("unauthenticated");
      if (!can(staff.role, spec.permission)) {
        await audit({ actor: actorOf(staff), action: "access.denied", target: spec.name, detail: { permission: spec.permission } });
        throw new AppError("forbidden");
      }
      const input = spec.input.safeParse(await readInput(request));
      if (!input.success) {
        throw new AppError("invalid-input", undefined, { fields: z.flattenError(input.error).fieldErrors as Record<string, string[]> });
      }
      const body = await handle({
        staff,
        actor: actorOf(staff),
        input: input.data,
        params: await context.params,
        request,
        log,
      });
      return body instanceof Response ? body : NextResponse.json(body);
    } catch (error) {
      return errorResponse(error, requestId, log);
    }
  };
  return Object.assign(handler, { permission: spec.permission });
}

export interface ApiRouteContext<T> {
  readonly caller: ApiCaller;
  /** How the caller is named in order_transitions.actor and grants.actor. */
  readonly actor: string;
  readonly input: T;
  readonly params: Params;
  readonly request: NextRequest;
  readonly log: typeof logger;
}

/**
 * The one way to write an integration API route: a valid, unrevoked API key (the tenant always
 * comes from it), then zod input. Same error shape as the console routes.
 */
export function apiRoute<S extends z.ZodType>(
  spec: { readonly name: string; readonly input: S },
  handle: (ctx: ApiRouteContext<z.output<S>>) => Promise<Response>,
): ApiRouteHandler {
  const handler = async (request: NextRequest, context: { params: Promise<Params> }): Promise<Response> => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    const log = logger.child({ route: spec.name, requestId });
    try {
      const caller = await authenticateApiKey(request.headers.get("authorization"));
      if (!caller) throw new AppError("unauthenticated", "Send a valid API key as: Authorization: Bearer <key>.");
      const input = spec.input.safeParse(await readInput(request));
      if (!input.success) {
        throw new AppError("invalid-input", undefined, { fields: z.flattenError(input.error).fieldErrors as Record<string, string[]> });
      }
      return await handle({
        caller,
        actor: `apikey:${caller.tenantId}/${caller.keyName}`,
        input: input.data,
        params: await context.params,
        request,
        log: log.child({ tenant: caller.tenantId }),
      });
    } catch (error) {
      return errorResponse(error, requestId, log);
    }
  };
  return Object.assign(handler, { auth: "api-key" as const });
}

export async function readInput(request: NextRequest): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return Object.fromEntries(request.nextUrl.searchParams);
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) throw new AppError("unsupported-media-type");
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw new AppError("payload-too-large");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new AppError("payload-too-large");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid-input", "The body is not valid JSON.");
  }
}

export function errorResponse(error: unknown, requestId: string, log: typeof logger, extra: Record<string, unknown> = {}): Response {
  const publicError = toPublicError(error, requestId);
  if (publicError.code === "internal") log.error({ err: error }, "route failed");
  return NextResponse.json({ error: publicError, ...extra }, { status: HTTP_STATUS[publicError.code] });
}

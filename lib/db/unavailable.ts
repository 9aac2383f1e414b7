// "The database is unreachable right now" — as opposed to a bug or a refusal — recognised in one
// place, from whatever layer the error came through: node's socket, pg, pg-pool, or Prisma's driver
// adapter. Callers answer it with "try again in a moment" (HTTP 503, a retrying error page, the
// worker's next tick) instead of an internal error. No imports: the console's client code reads
// RETRY_AFTER_SECONDS too.

/** How soon a caller should try again while the database is away (Retry-After, the error page's poll). */
export const RETRY_AFTER_SECONDS = 5;

/** The socket never connected, or the connection broke under us. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** SQLSTATEs of a server that is going away, starting up or full; class 08 (connection exception) too. */
const SQLSTATES = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, a fast shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, in recovery
  "57P05", // idle_session_timeout
  "53300", // too_many_connections
]);

/** Prisma's own codes for the same: can't reach, timed out, connection closed, pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** What @prisma/adapter-pg makes of a socket error (see its convertDriverError). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/**
 * pg's and pg-pool's own errors carry no code, only these words: a connection that ended
 * ("Connection terminated unexpectedly", "… due to connection timeout"), a client whose connection
 * broke earlier (Prisma's transactions surface this one), a checkout that timed out.
 */
const DRIVER_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

interface ErrorShape {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
  readonly kind?: unknown;
  readonly meta?: { readonly driverAdapterError?: { readonly cause?: unknown } };
}

function isSqlState(code: string): boolean {
  return SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

function matches(e: ErrorShape): boolean {
  const code = typeof e.code === "string" ? e.code : undefined;
  if (code !== undefined && (SOCKET_CODES.has(code) || isSqlState(code) || PRISMA_CODES.has(code))) return true;
  // An adapter error's cause: { kind: "DatabaseNotReachable" | … } or { kind: "postgres", code: "57P01" }.
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  return typeof e.message === "string" && DRIVER_MESSAGES.test(e.message);
}

/**
 * True when `error` (or what it wraps: `cause`, an AggregateError's errors, Prisma's driver
 * adapter error) says the database could not be reached or dropped the connection — worth trying
 * again shortly, not a bug in the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e)) continue;
    seen.add(e);
    const shape = e as ErrorShape;
    if (matches(shape)) return true;
    queue.push(shape.cause, shape.meta?.driverAdapterError?.cause);
    if (Array.isArray(shape.errors)) queue.push(...(shape.errors as unknown[]));
  }
  return false;
}

import pino from "pino";

/**
 * The one logger. JSON lines to stdout (what log shippers read); `LOG_LEVEL` sets the level.
 * Request handlers take a child with their request id: `logger.child({ requestId })`.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: process.env.ORDEROPS_SERVICE ?? "orderops" },
  redact: ["password", "*.password", "secret", "*.secret", "authorization", "*.authorization"],
});

export type Logger = typeof logger;

import { logger } from "@/lib/log";

// The one retry loop. A unit of work that lost a race it could not have seen coming — a
// serialization failure, a deadlock, a compare-and-set that matched no row, or (for writers whose
// unique keys are their idempotency backstop) a concurrent insert of the same key — is run again
// from the start: the next attempt reads what the winner committed and answers from it.

/** Attempts per unit of work: the first and three more. */
export const MAX_ATTEMPTS = 4;

/**
 * Throw this inside a transaction to roll it back and run it again: the state it decided on
 * changed under it (a compare-and-set update matched no row).
 */
export class ConcurrentChange extends Error {
  constructor(what: string) {
    super(`${what}: changed concurrently`);
    this.name = "ConcurrentChange";
  }
}

const ALWAYS_RETRIED = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

function codeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? (error as { code?: string }).code : undefined;
}

/**
 * A unique key refused the write: pg's 23505, or the same from Prisma (P2002). `constraint` names
 * the index to be sure which key it was.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; meta?: { driverAdapterError?: { cause?: { constraint?: { index?: string } } } } } | null;
  if (e?.code === "23505") return constraint === undefined || e.constraint === constraint;
  if (e?.code === "P2002") return constraint === undefined || e.meta?.driverAdapterError?.cause?.constraint?.index === constraint;
  return false;
}

export interface RetryOptions {
  /** For the log line of a retry: "transit pay", "grant". */
  readonly label: string;
  /**
   * Retry a unique violation too. Right for writers whose unique key is the idempotency backstop
   * (transit, grant): the retry finds the row the twin committed and answers `duplicate`. Wrong
   * where a unique violation is the answer (an email that is taken).
   */
  readonly uniqueViolations?: boolean;
  readonly attempts?: number;
}

export function isRetryable(error: unknown, options: Pick<RetryOptions, "uniqueViolations"> = {}): boolean {
  if (error instanceof ConcurrentChange) return true;
  const code = codeOf(error);
  return (code !== undefined && ALWAYS_RETRIED.has(code)) || (options.uniqueViolations === true && code === "23505");
}

export async function retry<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = options.attempts ?? MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error, options)) throw error;
      logger.warn({ err: error, attempt, work: options.label }, "retrying after a concurrent change");
    }
  }
}

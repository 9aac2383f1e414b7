// One error type for the app: a code (what kind of failure, and its HTTP status) and, where it says
// more, a problem (lib/problems.ts) with the facts. Neither is a sentence: the words are chosen at
// the edge, in the reader's language (lib/i18n/public-error.ts). `message` is for logs only.
import type { FieldProblem, Problem } from "./problems";
import type { FieldProblems } from "./validation";

export const ERROR_CODES = [
  "unauthenticated",
  "forbidden",
  "not-found",
  "invalid-input",
  "conflict",
  "rate-limited",
  "payload-too-large",
  "unsupported-media-type",
  /** The database cannot be reached right now: try again shortly (Retry-After). */
  "unavailable",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  "invalid-input": 400,
  conflict: 409,
  "rate-limited": 429,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly problem: Problem | undefined;
  readonly fields: FieldProblems | undefined;

  constructor(code: ErrorCode, problem?: Problem, options: { fields?: FieldProblems; cause?: unknown } = {}) {
    super(problem ? `${code}: ${JSON.stringify(problem)}` : code, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.problem = problem;
    this.fields = options.fields;
  }
}

/** An invalid-input error about one field. */
export function invalidField(field: string, problem: FieldProblem): AppError {
  return new AppError("invalid-input", undefined, { fields: { [field]: [problem] } });
}

/** What a caller may see of any error, already in the caller's language. */
export interface PublicError {
  readonly code: ErrorCode;
  readonly message: string;
  /** The facts behind the message, for callers that act on them. */
  readonly problem?: Problem;
  readonly fields?: Record<string, string[]>;
  /** Set on internal errors: quote it to find the full error in the logs. */
  readonly reference?: string;
}

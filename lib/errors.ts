// One error type for the app. `message` is for logs; `userMessage` is safe to show anyone.

export const ERROR_CODES = [
  "unauthenticated",
  "forbidden",
  "not-found",
  "invalid-input",
  "conflict",
  "rate-limited",
  "payload-too-large",
  "unsupported-media-type",
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
  internal: 500,
};

const DEFAULT_USER_MESSAGE: Readonly<Record<ErrorCode, string>> = {
  unauthenticated: "Sign in to continue.",
  forbidden: "Your role does not allow this.",
  "not-found": "Not found.",
  "invalid-input": "Some of the input is not valid.",
  conflict: "This conflicts with the current state; reload and try again.",
  "rate-limited": "Too many attempts; wait a moment and try again.",
  "payload-too-large": "The request body is too large.",
  "unsupported-media-type": "Send the body as application/json.",
  internal: "Something went wrong on our side.",
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly fields: Record<string, string[]> | undefined;

  constructor(code: ErrorCode, message?: string, options: { userMessage?: string; fields?: Record<string, string[]>; cause?: unknown } = {}) {
    super(message ?? DEFAULT_USER_MESSAGE[code], { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage ?? message ?? DEFAULT_USER_MESSAGE[code];
    this.fields = options.fields;
  }
}

export interface PublicError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly fields?: Record<string, string[]>;
  /** Set on internal errors: quote it to find the full error in the logs. */
  readonly reference?: string;
}

/** What a caller may see of any error: an AppError's user message, or a generic one with a reference. */
export function toPublicError(error: unknown, reference: string): PublicError {
  if (error instanceof AppError) {
    return { code: error.code, message: error.userMessage, ...(error.fields ? { fields: error.fields } : {}) };
  }
  return { code: "internal", message: `${DEFAULT_USER_MESSAGE.internal} Reference: ${reference}.`, reference };
}

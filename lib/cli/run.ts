import { userInfo } from "node:os";
import type pg from "pg";
import { openDatabase } from "@/lib/db/open";
import { getPool } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { english } from "@/lib/i18n/translator";
import { logger } from "@/lib/log";

export interface CommandContext {
  readonly pool: pg.Pool;
  /** What the command tells its user: stdout, one line per call. Logs go to the logger. */
  readonly out: (line: string) => void;
  readonly embedded: boolean;
}

/**
 * Runs one CLI command against DATABASE_URL, or the embedded database when it is unset (joining a
 * running `npm start` if there is one). Failures print one clear line and exit 1, never a stack
 * trace; LOG_LEVEL=debug shows the full error in the logs.
 */
export async function runWithDatabase(work: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const database = await openDatabase("join-or-serve");
  try {
    await work({ pool: getPool(), out: (line) => process.stdout.write(`${line}\n`), embedded: database.embedded });
  } catch (error) {
    logger.debug({ err: error }, "command failed");
    process.stderr.write(`error: ${describeError(error)}\n`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

/** Who the audit trail names for changes made from the command line. */
export function cliActor(): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (some containers): fall back to the environment.
  }
  return `cli:${name || process.env.USER || "operator"}`;
}

/** One line for the operator: an AppError's problem in English, else the error's message. */
function describeError(error: unknown): string {
  if (error instanceof AppError) return error.problem ? english(error.problem) : error.code;
  return error instanceof Error ? error.message : String(error);
}

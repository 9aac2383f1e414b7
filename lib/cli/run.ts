import { userInfo } from "node:os";
import type pg from "pg";
import { openEmbedded } from "@/lib/db/embedded";
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma } from "@/lib/db/prisma";
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
  const embedded = process.env.DATABASE_URL ? null : await openEmbedded();
  if (embedded) process.env.DATABASE_URL = embedded.url;
  try {
    await work({ pool: getPool(), out: (line) => process.stdout.write(`${line}\n`), embedded: embedded !== null });
  } catch (error) {
    logger.debug({ err: error }, "command failed");
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await disconnectPrisma();
    await closePool();
    await embedded?.stop();
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

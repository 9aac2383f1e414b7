import "server-only";
import { getPool } from "./pool";
import { execute } from "./sql";

/** One round trip to the database; throws what the pool throws while it cannot be reached. */
export async function pingDatabase(): Promise<void> {
  await execute(getPool(), "SELECT 1");
}

import { existsSync } from "node:fs";
import path from "node:path";
import { DATA_DIR, openEmbedded } from "./embedded";
import { closePool } from "./pool";
import { disconnectPrisma } from "./prisma";

// How the web start, the worker and the CLI find their database: DATABASE_URL when it is set;
// otherwise the embedded PostgreSQL (PGlite) in .data/, which one process serves and the others
// join. Each entry point says which role it may take.

export type EmbeddedRole =
  /** `npm start`: serves the embedded database; refuses if another process already does. */
  | "serve"
  /** The worker: only joins a running `npm start` (serving it would lock `npm start` out, or create an empty one). */
  | "join"
  /** The CLI: joins a running `npm start`, else serves the folder itself for the command's length. */
  | "join-or-serve";

export interface OpenDatabase {
  /** True when the database is the embedded one (demo data may be written there). */
  readonly embedded: boolean;
  /** Closes the pool and Prisma, and stops the embedded server if this process served it. */
  close(): Promise<void>;
}

/** Opens the database for this process and points DATABASE_URL (so the pool and Prisma) at it. */
export async function openDatabase(role: EmbeddedRole): Promise<OpenDatabase> {
  if (process.env.DATABASE_URL) return { embedded: false, close: closeClients };
  if (role === "join" && !existsSync(path.join(DATA_DIR, "embedded.json"))) throw new Error(NOTHING_TO_JOIN);
  const embedded = await openEmbedded();
  if (role === "serve" && !embedded.owned) throw new Error("another npm start already serves the embedded database in .data/");
  if (role === "join" && embedded.owned) {
    await embedded.stop();
    throw new Error(NOTHING_TO_JOIN);
  }
  process.env.DATABASE_URL = embedded.url;
  return {
    embedded: true,
    async close() {
      await closeClients();
      await embedded.stop();
    },
  };
}

const NOTHING_TO_JOIN = "no running `npm start` serves the embedded database in .data/: start it first, or set DATABASE_URL";

async function closeClients(): Promise<void> {
  await disconnectPrisma();
  await closePool();
}

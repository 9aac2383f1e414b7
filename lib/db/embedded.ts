import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The embedded default: real PostgreSQL compiled to WASM (PGlite), served on a loopback port, so
// the app connects to it exactly as it would to any PostgreSQL — one code path. It runs one
// transaction at a time: correct, but single-writer (fine for a demo, never for production).

export const DATA_DIR = path.join(process.cwd(), ".data");

export interface EmbeddedDatabase {
  readonly url: string;
  /** True when this process started the server (and so must stop it). */
  readonly owned: boolean;
  stop(): Promise<void>;
}

function urlFor(port: number): string {
  return `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

export interface EmbeddedOptions {
  /** Where the data lives; it survives restarts. Default .data/ in the working directory. */
  readonly dataDir?: string;
  /** Default EMBEDDED_DB_PORT, else any free port. */
  readonly port?: number;
}

/** Joins the embedded database another local process serves, or starts and serves it here. */
export async function openEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const dataDir = options.dataDir ?? DATA_DIR;
  // Written by the process that owns the database, so a second process (the CLI) can join it.
  const ownerFile = path.join(dataDir, "embedded.json");
  const running = await runningOwner(ownerFile);
  if (running) return { url: urlFor(running.port), owned: false, stop: async () => undefined };

  await mkdir(path.join(dataDir, "pglite"), { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  const port = options.port ?? (Number(process.env.EMBEDDED_DB_PORT ?? 0) || (await freePort()));
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 100 });
  await server.start();
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, port }));
  return {
    url: urlFor(port),
    owned: true,
    async stop() {
      await server.stop();
      await db.close();
      await rm(ownerFile, { force: true });
    },
  };
}

async function runningOwner(ownerFile: string): Promise<{ pid: number; port: number } | null> {
  let owner: { pid: number; port: number };
  try {
    owner = JSON.parse(await readFile(ownerFile, "utf8")) as { pid: number; port: number };
  } catch {
    return null;
  }
  try {
    process.kill(owner.pid, 0);
  } catch {
    return null; // left behind by a process that died: the folder is free again
  }
  return owner.pid === process.pid ? null : owner;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

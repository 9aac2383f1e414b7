import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { SHARED_SESSION_ENV } from "./sql";

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
  // Every connection to it shares PGlite's one session: no prepared statements (lib/db/sql.ts).
  // Inherited by the processes this one starts (the web processes, the worker, the simulator).
  process.env[SHARED_SESSION_ENV] = "1";
  const running = await runningOwner(ownerFile);
  if (running) return { url: urlFor(running.port), owned: false, stop: async () => undefined };

  await mkdir(path.join(dataDir, "pglite"), { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  const port = options.port ?? (Number(process.env.EMBEDDED_DB_PORT ?? 0) || (await freePort()));
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 100 });
  keepExtendedQueriesTogether(server, db);
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

// Protocol message types that open or continue an extended query; Sync ('S') ends it.
const EXTENDED_QUERY_MESSAGES = new Set([0x50 /* Parse */, 0x42 /* Bind */, 0x44 /* Describe */, 0x45 /* Execute */, 0x43 /* Close */, 0x48 /* Flush */]);

interface QueuedMessage {
  readonly handlerId: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (bytes: number) => void;
  readonly reject: (error: unknown) => void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/**
 * pglite-socket 0.2.17 runs protocol messages one at a time from every connection, and keeps one
 * connection's messages together only inside a transaction. Outside one, two connections'
 * extended queries (Parse, Bind, Execute … Sync) interleave — and as every connection shares
 * PGlite's single session, they trample each other's unnamed statement ("bind message supplies 1
 * parameters, but prepared statement requires 8"). Seen as soon as the web server, the worker and
 * the simulator shared the embedded database. This keeps each connection's messages together up to
 * its Sync, as separate sessions of a real server would. (Reaches into the server's queue: pinned
 * version, and lib/db/embedded.test.ts fires concurrent parameterized queries to hold it to it.)
 */
function keepExtendedQueriesTogether(server: PGLiteSocketServer, db: PGlite): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let holder: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueue): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = db.isInTransaction() && this.lastHandlerId !== null ? this.lastHandlerId : holder;
        const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
        if (index === -1) break; // the owner's next message has not arrived yet; enqueue() resumes us
        const [item] = this.queue.splice(index, 1) as [QueuedMessage];
        let bytes = 0;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          holder = null;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        holder = EXTENDED_QUERY_MESSAGES.has(item.message[0]!) ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };

  // A connection that goes away in the middle of an extended query must not hold everyone else.
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (holder === handlerId) {
      holder = null;
      void queue.processQueue();
    }
  };
}

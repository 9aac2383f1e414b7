// `npm run worker`: the background worker process (timeout close, delivery coordinator, outbox
// relay). Several may run at once. Without DATABASE_URL it joins the embedded database of a running
// `npm start`. SIGINT/SIGTERM stop it after the batches in hand; a second signal exits at once.
import { openDatabase } from "@/lib/db/open";
import { logger } from "@/lib/log";
import { runWorker } from "./worker";

const log = logger.child({ component: "worker" });

async function main(): Promise<void> {
  const database = await openDatabase("join");
  // Each job's claim holds a connection while its transit() calls take others. `npm start` sets this
  // from the node's budget (lib/process/connection-budget.ts); a worker started alone takes as many.
  process.env.DATABASE_POOL_SIZE ??= "10";

  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      log.warn({ signal }, "second signal: exiting now");
      process.exit(130);
    }
    log.info({ signal }, "stopping after the batches in hand");
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  await runWorker({ signal: controller.signal, intervalMs: Number(process.env.WORKER_INTERVAL_MS ?? 1000), ...relayMaxAttempts(process.env.OUTBOX_MAX_ATTEMPTS) });
  await database.close();
}

/** OUTBOX_MAX_ATTEMPTS when it is a whole number from 1 to 100; otherwise the relay's default (and a warning if it was set). */
function relayMaxAttempts(value: string | undefined): { relayMaxAttempts?: number } {
  if (value === undefined || value === "") return {};
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= 100) return { relayMaxAttempts: n };
  log.warn({ OUTBOX_MAX_ATTEMPTS: value }, "OUTBOX_MAX_ATTEMPTS is not a whole number from 1 to 100: using the relay's default");
  return {};
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "worker failed");
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

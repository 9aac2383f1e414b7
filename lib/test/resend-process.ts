// A web process's part in the "two web processes resend once" test (lib/deliveries/resend.integration.test.ts):
// its own Node process with its own pool. It says "ready" once its pool is warm, waits for "go" on
// stdin (sent to every process at once), then makes one concurrent resend per key in RESEND_KEYS
// and prints their results as one JSON line.
// Run with `node --conditions=react-server --import tsx` (server-only resolves to nothing then).
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma } from "@/lib/db/prisma";
import { resendMessage, type ResendResult } from "@/lib/deliveries/resend";

async function main(): Promise<void> {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const tenantId = env("RESEND_TENANT");
  const messageId = Number(env("RESEND_MESSAGE"));
  const keys = env("RESEND_KEYS").split(",");
  // Warm the pool first, so the calls race each other rather than the connection handshake.
  await Promise.all(keys.map(() => getPool().query("SELECT 1")));
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  // stdin left open would keep this process alive after its work.
  process.stdin.destroy();
  const settled = await Promise.allSettled(keys.map((requestKey) => resendMessage({ tenantId, messageId, actor: `staff:${process.pid}@example.com`, reason: "receiver lost it", requestKey })));
  const results = settled.map((s): ResendResult["result"] | "error" => (s.status === "fulfilled" ? s.value.result : "error"));
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await disconnectPrisma();
  await closePool();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});

import { InvalidArgumentError, type Command } from "commander";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api/keys";
import { runSimulator, signingSecrets, startGrantEndpoint } from "@/lib/sim/simulator";
import { cliActor, runWithDatabase } from "./run";

interface SimulateFlags {
  readonly url: string;
  readonly rate: number;
  readonly minutes: number;
  readonly grantPort: number;
}

const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number");
  return n;
};

export function registerSimulate(program: Command): void {
  program
    .command("simulate")
    .description("play payment channels and game servers against a running console, through the API only; stops by itself")
    .option("--url <url>", "the console's base URL", `http://127.0.0.1:${process.env.PORT ?? 3000}`)
    .option("--rate <n>", "new orders per second", positive, 1)
    .option("--minutes <n>", "how long to send traffic (the grant endpoint stays up until stopped)", positive, 10)
    .option("--grant-port <port>", "port of the demo grant endpoint fangzhou's managed delivery calls", positive, 4010)
    .action((flags: SimulateFlags) =>
      runWithDatabase(async ({ out }) => {
        // Fresh keys each run; the previous run's are revoked (their secrets were never stored).
        const keys = {} as Record<"xiaoxiao" | "fangzhou", string>;
        for (const tenant of ["xiaoxiao", "fangzhou"] as const) {
          for (const old of await listApiKeys([tenant])) {
            if (old.name.startsWith("simulator-") && !old.revokedAt) await revokeApiKey(old, cliActor());
          }
          keys[tenant] = (await createApiKey({ tenantId: tenant, name: `simulator-${Date.now().toString(36)}`, actor: cliActor() })).key;
        }
        const endpoint = await startGrantEndpoint({ port: flags.grantPort, secrets: signingSecrets });
        out(`grant endpoint listening on ${endpoint.url}; sending ${flags.rate} orders/s to ${flags.url} for ${flags.minutes} min`);

        const controller = new AbortController();
        process.once("SIGINT", () => controller.abort());
        process.once("SIGTERM", () => controller.abort());
        const report = await runSimulator({ baseUrl: flags.url, keys, rate: flags.rate, durationMs: flags.minutes * 60_000, signal: controller.signal });
        out(`traffic done: ${Object.entries(report).map(([k, v]) => `${k} ${v}`).join(", ")}; grants answered ${endpoint.granted.size}`);
        if (!controller.signal.aborted) {
          out("grant endpoint stays up for the delivery coordinator; Ctrl-C to stop");
          await new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
        }
        endpoint.server.close();
      }),
    );
}

import { InvalidArgumentError, type Command } from "commander";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api/keys";
import { FLAKY_WEBHOOK_TENANTS } from "@/lib/sim/flaky-webhook";
import { answerLater } from "@/lib/sim/refund-channel";
import { runSimulator, signingSecrets, startGrantEndpoint } from "@/lib/sim/simulator";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
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
        const controller = new AbortController();
        const endpoint = await startGrantEndpoint({
          port: flags.grantPort,
          secrets: signingSecrets,
          onRefundRequested: (payload) => answerLater(payload, { baseUrl: flags.url, keys, signal: controller.signal }),
        });
        await listenForWebhooks({ reliable: endpoint.webhookUrl, flaky: endpoint.flakyWebhookUrl }, out);
        out(`grant endpoint listening on ${endpoint.url}; sending ${flags.rate} orders/s to ${flags.url} for ${flags.minutes} min`);

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

/** A webhook URL a previous simulator run registered (it may have listened on another port), reliable or not. */
const SIMULATOR_WEBHOOK = /^http:\/\/127\.0\.0\.1:\d+\/webhooks(\/flaky)?$/;

/**
 * Points the demo products' webhooks at the simulated receivers, so the channels hear of refund
 * requests and the deliveries page has every status to show: the products in FLAKY_WEBHOOK_TENANTS
 * at the unreliable receiver (lib/sim/flaky-webhook.ts), the others at the reliable one. Only where
 * no webhook is set (or a simulator's is), never over a real integration; through the settings' own
 * writer, so the change is audited like any other.
 */
export async function listenForWebhooks(urls: { readonly reliable: string; readonly flaky: string }, out: (line: string) => void): Promise<void> {
  for (const settings of await listTenantSettings(["xiaoxiao", "fangzhou"])) {
    const url = (FLAKY_WEBHOOK_TENANTS as readonly string[]).includes(settings.tenantId) ? urls.flaky : urls.reliable;
    if (settings.webhookUrl === url) continue;
    if (settings.webhookUrl !== null && !SIMULATOR_WEBHOOK.test(settings.webhookUrl)) {
      out(`${settings.tenantId} sends its webhooks to ${settings.webhookUrl}: refund requests will not reach the simulated channels`);
      continue;
    }
    await updateTenantSettings(settings.tenantId, settings.updatedAt, { field: "webhook_url", value: url }, cliActor());
  }
}

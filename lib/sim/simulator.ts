import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getPrisma } from "@/lib/db/prisma";
import { MESSAGE_ID_HEADER, TOPIC_HEADER, verifySignature, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "@/lib/jobs/signature";
import { logger } from "@/lib/log";
import type { RefundRequestedPayload } from "@/lib/refunds/request-refund";
import { DEMO_CATALOG, type DemoProduct, type DemoTenantId } from "@/lib/seed/demo-catalog";
import { DEMO_TIMINGS, flakyAnswer, webhookFate, type FlakyTimings } from "./flaky-webhook";
import { isStore, simulatedPayment } from "./store-payment";

// The traffic simulator: plays the outside world against a running console, through the public
// integration API only. Payment channels create and pay orders (with the occasional retried
// callback, short payment, overpayment, second payment and payment after close), and a few are paid
// through the App Store or Google Play (store-payment.ts); xiaoxiao's game
// server drives its own delivery through the API; a demo grant endpoint answers fangzhou's delivery
// coordinator (managed mode); and the channels hear of refund requests on a webhook and answer them
// through the API (refund-channel.ts), so cases move through every state while you watch.

export interface SimulatorOptions {
  /** The console's base URL, e.g. http://127.0.0.1:3000 */
  readonly baseUrl: string;
  /** One API key per tenant. */
  readonly keys: Readonly<Record<DemoTenantId, string>>;
  /** Orders per second, across both tenants. */
  readonly rate: number;
  /** Stops by itself after this long. */
  readonly durationMs: number;
  readonly signal?: AbortSignal;
  readonly random?: () => number;
}

export type SimCounter =
  | "created"
  | "paid"
  | "store-orders"
  | "retried-callbacks"
  | "short-payments"
  | "abandoned"
  | "late-payments"
  | "second-payments"
  | "overpayments"
  | "delivered-by-game-server"
  | "refunds-requested"
  | "http-errors";

export type SimReport = Record<SimCounter, number>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

function pick<T extends { weight: number }>(items: readonly T[], r: number): T {
  const total = items.reduce((s, i) => s + i.weight, 0);
  let x = r * total;
  for (const item of items) if ((x -= item.weight) < 0) return item;
  return items[items.length - 1]!;
}

export async function runSimulator(options: SimulatorOptions): Promise<SimReport> {
  const random = options.random ?? Math.random;
  const report: SimReport = {
    created: 0,
    paid: 0,
    "store-orders": 0,
    "retried-callbacks": 0,
    "short-payments": 0,
    abandoned: 0,
    "late-payments": 0,
    "second-payments": 0,
    "overpayments": 0,
    "delivered-by-game-server": 0,
    "refunds-requested": 0,
    "http-errors": 0,
  };
  const log = logger.child({ component: "simulator" });
  const started = Date.now();
  let sequence = 0;
  const inFlight = new Set<Promise<void>>();

  const call = async (tenant: DemoTenantId, path: string, body: unknown): Promise<{ status: number; body: { order?: { state: string } } }> => {
    const response = await fetch(`${options.baseUrl}/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${options.keys[tenant]}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status >= 500) report["http-errors"]++;
    return { status: response.status, body: (await response.json().catch(() => ({}))) as { order?: { state: string } } };
  };

  async function lifeOfAnOrder(tenant: DemoTenantId, product: DemoProduct, n: number): Promise<void> {
    const catalog = DEMO_CATALOG[tenant];
    const orderNo = `SIM-${catalog.orderPrefix}-${started.toString(36)}-${n}`;
    const playerId = `${catalog.playerPrefix}sim-${Math.floor(random() * 500)}`;
    const created = await call(tenant, "/orders", { orderNo, playerId, currency: "CNY", amount: product.price, lines: product.lines });
    if (created.status !== 201) return;
    report.created++;
    const event = (body: object) => call(tenant, `/orders/${orderNo}/events`, body);

    const fate = random();
    await sleep(300 + random() * 2_000, options.signal);
    if (fate < 0.08) {
      // Never paid: left for the timeout-close job. Now and then the money arrives after the close.
      report.abandoned++;
      if (fate < 0.01) {
        await event({ event: "close", bizKey: "timeout", expectedState: "created" });
        await event({ event: "pay", bizKey: `late-${orderNo}`, amount: product.price });
        report["late-payments"]++;
      }
      return;
    }
    const payment = simulatedPayment(orderNo, random);
    const txn = payment.txn;
    const store = isStore(payment.channel);
    if (fate < 0.1 && !store) {
      await event({ event: "pay", bizKey: `${txn}-short`, amount: product.price - 100 });
      report["short-payments"]++;
    }
    if (fate >= 0.1 && fate < 0.105 && !store) {
      // Charged too much and nothing else: the order waits for ops to accept it (or times out).
      await event({ event: "pay", bizKey: `${txn}-over`, amount: product.price + 100 });
      report.overpayments++;
      return;
    }
    const paid = await event({ event: "pay", bizKey: txn, amount: product.price });
    if (paid.status !== 200) return;
    report.paid++;
    if (store) report["store-orders"]++;
    if (random() < 0.15) {
      await event({ event: "pay", bizKey: txn, amount: product.price });
      report["retried-callbacks"]++;
    }
    if (random() < 0.01 && !store) {
      // The player paid twice (a second transaction): money for ops to give back.
      await event({ event: "pay", bizKey: `${txn}-again`, amount: product.price });
      report["second-payments"]++;
    }

    // fangzhou is delivered by our coordinator through the demo grant endpoint; xiaoxiao's game
    // server does it itself, through the API. One xiaoxiao order in twenty gets stuck half-way.
    if (tenant === "xiaoxiao") {
      await sleep(200 + random() * 1_000, options.signal);
      await event({ event: "begin-delivery", bizKey: `ticket-${orderNo}` });
      const stuck = random() < 0.05;
      for (const [i, line] of product.lines.entries()) {
        if (stuck && i === product.lines.length - 1) break;
        await call(tenant, `/orders/${orderNo}/grants`, { sku: line.sku, quantity: line.quantity, grantId: `srv:${orderNo}:${line.sku}` });
      }
      if (!stuck && (await event({ event: "confirm-delivery", bizKey: `ticket-${orderNo}` })).status === 200) report["delivered-by-game-server"]++;
    }
    // A store's refunds reach us as the store's signed notifications, which the simulator cannot sign.
    if (random() < 0.03 && !store) {
      await sleep(1_000 + random() * 3_000, options.signal);
      await event({ event: "request-refund", bizKey: `refund-${orderNo}`, reason: "player asked the channel for a refund" });
      report["refunds-requested"]++;
    }
  }

  await waitUntilUp(options.baseUrl, options.signal);
  const intervalMs = 1_000 / options.rate;
  while (!options.signal?.aborted && Date.now() - started < options.durationMs) {
    const tenant: DemoTenantId = random() < DEMO_CATALOG.xiaoxiao.share ? "xiaoxiao" : "fangzhou";
    const product = pick(DEMO_CATALOG[tenant].products, random());
    const life = lifeOfAnOrder(tenant, product, ++sequence).catch((error: unknown) => {
      report["http-errors"]++;
      log.warn({ err: error }, "simulated order failed");
    });
    inFlight.add(life);
    void life.finally(() => inFlight.delete(life));
    await sleep(intervalMs * (0.5 + random()), options.signal);
  }
  await Promise.all(inFlight);
  return report;
}

/** Waits (up to 5 minutes) for the console to answer, e.g. while `npm start` is still building. */
async function waitUntilUp(baseUrl: string, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  while (!signal?.aborted && Date.now() < deadline) {
    const up = await fetch(`${baseUrl}/sign-in`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
    if (up) return;
    await sleep(2_000, signal);
  }
  if (!signal?.aborted) throw new Error(`the console at ${baseUrl} did not answer within 5 minutes`);
}

/**
 * The demo game server's grant endpoint (fangzhou's managed delivery points here): checks the
 * signature, grants each grantId once, and now and then answers 503 so retries can be seen. On
 * /revoke it is the game's revoke endpoint (the take-back calls a confirmed refund owes,
 * lib/jobs/take-back-calls.ts): the same signature check, each revocationId taken back once and a
 * repeat answered 200, the same occasional 503. On /webhooks the same server plays the tenants'
 * webhook receiver: it checks the signature, accepts every message, and hands refund requests to
 * `onRefundRequested` (the channels answer them). On /webhooks/flaky it is an unreliable one
 * (flaky-webhook.ts): the same signature check, then each message's fate by its
 * x-orderops-message-id — taken at once, failed a few times first, slow, too slow, or down — and a
 * refund request it takes is handed on the same way. It counts the attempts it saw per message in
 * memory: it plays a game server outside the console, not part of it.
 */
export async function startGrantEndpoint(input: {
  port: number;
  secrets: () => Promise<Record<string, string>>;
  failureRate?: number;
  onRefundRequested?: (payload: RefundRequestedPayload) => void;
  /** How slow the unreliable webhook receiver is (tests shorten it). */
  flakyTimings?: FlakyTimings;
}): Promise<{
  server: Server;
  url: string;
  revokeUrl: string;
  webhookUrl: string;
  flakyWebhookUrl: string;
  granted: Set<string>;
  revoked: Set<string>;
}> {
  const granted = new Set<string>();
  const revoked = new Set<string>();
  const flakyAttempts = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", async () => {
      try {
        const call = JSON.parse(body) as { tenantId: string; grantId?: string; revocationId?: string };
        const secret = (await input.secrets())[call.tenantId];
        const signed =
          secret !== undefined &&
          verifySignature({ secret, signature: request.headers[SIGNATURE_HEADER] as string, timestamp: request.headers[TIMESTAMP_HEADER] as string, body });
        if (!signed) return void response.writeHead(401).end("bad signature");
        const heard = () => {
          if (request.headers[TOPIC_HEADER] === "refund.requested") input.onRefundRequested?.(JSON.parse(body) as RefundRequestedPayload);
        };
        if (request.url === "/webhooks") {
          heard();
          return void response.writeHead(204).end();
        }
        if (request.url === "/webhooks/flaky") {
          const messageId = request.headers[MESSAGE_ID_HEADER];
          if (typeof messageId !== "string" || messageId === "") return void response.writeHead(400).end("no message id");
          const attempt = (flakyAttempts.get(messageId) ?? 0) + 1;
          flakyAttempts.set(messageId, attempt);
          const answer = flakyAnswer(webhookFate(messageId), attempt, input.flakyTimings ?? DEMO_TIMINGS);
          if (answer.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
          if (answer.status < 300) heard();
          return void response.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
        }
        const revoke = request.url === "/revoke";
        const id = revoke ? call.revocationId : call.grantId;
        const done = revoke ? revoked : granted;
        if (typeof id !== "string") return void response.writeHead(400).end("bad request");
        if (!done.has(id) && Math.random() < (input.failureRate ?? 0.05)) return void response.writeHead(503).end("busy, try later");
        done.add(id);
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(revoke ? { revoked: true } : { granted: true }));
      } catch {
        response.writeHead(400).end("bad request");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(input.port, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/grants`,
    revokeUrl: `http://127.0.0.1:${port}/revoke`,
    webhookUrl: `http://127.0.0.1:${port}/webhooks`,
    flakyWebhookUrl: `http://127.0.0.1:${port}/webhooks/flaky`,
    granted,
    revoked,
  };
}

/** The tenants' signing secrets, for checking what the coordinator signs. */
export async function signingSecrets(): Promise<Record<string, string>> {
  const settings = await getPrisma().tenantSettings.findMany({ select: { tenantId: true, signingSecret: true } });
  return Object.fromEntries(settings.map((s) => [s.tenantId, s.signingSecret]));
}

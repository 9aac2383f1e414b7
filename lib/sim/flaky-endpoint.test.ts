// The unreliable webhook receiver as the relay meets it: the demo endpoint (simulator.ts) on a real
// port, called with the relay's own signed POST (lib/jobs/signed-post.ts) and its headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_ID_HEADER, TOPIC_HEADER } from "@/lib/jobs/signature";
import { postSigned, type SignedPostResult } from "@/lib/jobs/signed-post";
import type { RefundRequestedPayload } from "@/lib/refunds/request-refund";
import { DEMO_OUTBOX_MAX_ATTEMPTS, webhookFate, type WebhookFate } from "./flaky-webhook";
import { startGrantEndpoint } from "./simulator";

const TENANT = "flaky-home";
const SECRET = "s3cret-for-the-test";
/** The relay's timeout, shortened with the receiver's timings so the test does not wait 15 s. */
const TIMEOUT_MS = 2_000;
const TIMINGS = { slowMs: 150, tooSlowMs: 3_000 };

let endpoint: Awaited<ReturnType<typeof startGrantEndpoint>>;
const heard: RefundRequestedPayload[] = [];

beforeAll(async () => {
  endpoint = await startGrantEndpoint({ port: 0, secrets: async () => ({ [TENANT]: SECRET }), flakyTimings: TIMINGS, onRefundRequested: (p) => heard.push(p) });
});
afterAll(() => new Promise<void>((resolve) => endpoint.server.close(() => resolve())));

/** Message ids (as the outbox numbers them) of a fate, from `from` on: each test takes its own. */
function idsOf(fate: WebhookFate, count: number, from: number): string[] {
  const ids: string[] = [];
  for (let id = from; ids.length < count; id++) if (webhookFate(String(id)) === fate) ids.push(String(id));
  return ids;
}

const send = (messageId: string | null, topic = "order.paid", secret = SECRET): Promise<SignedPostResult> =>
  postSigned({
    fetch: globalThis.fetch,
    url: endpoint.flakyWebhookUrl,
    secret,
    body: JSON.stringify({ tenantId: TENANT, refundId: `rf-${messageId}`, channel: "alipay" }),
    headers: { ...(messageId === null ? {} : { [MESSAGE_ID_HEADER]: messageId }), [TOPIC_HEADER]: topic },
    timeoutMs: TIMEOUT_MS,
  });

describe("the demo's unreliable webhook endpoint", () => {
  it("is at /webhooks/flaky beside the reliable receiver", () => {
    expect(endpoint.flakyWebhookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/flaky$/);
    expect(endpoint.webhookUrl).toBe(endpoint.flakyWebhookUrl.replace(/\/flaky$/, ""));
  });

  it("takes an on-time message at once, and hands a refund request it takes to the channels", async () => {
    const [id] = idsOf("on-time", 1, 1);
    expect(await send(id!, "refund.requested")).toMatchObject({ ok: true, status: 204 });
    expect(heard.map((p) => p.refundId)).toContain(`rf-${id}`);
  });

  it("fails a flaky message twice with 503, then takes it: a refund request is handed on only when taken", async () => {
    const [id] = idsOf("flaky", 1, 1);
    const before = heard.length;
    const tries = [await send(id!, "refund.requested"), await send(id!, "refund.requested"), await send(id!, "refund.requested")];
    expect(tries.map((t) => t.status)).toEqual([503, 503, 204]);
    expect(tries[0]).toMatchObject({ ok: false, error: "HTTP 503: busy, try later" });
    expect(heard.slice(before).map((p) => p.refundId)).toEqual([`rf-${id}`]);
  });

  it("answers a slow message late but in time, and a too-slow one's first attempt after the relay gave up", async () => {
    const [slow] = idsOf("slow", 1, 1);
    const started = Date.now();
    expect(await send(slow!)).toMatchObject({ ok: true, status: 204 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMINGS.slowMs);

    const [tooSlow] = idsOf("too-slow", 1, 1);
    expect(await send(tooSlow!)).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^timed out after 2000 ms/) });
    expect(await send(tooSlow!)).toMatchObject({ ok: true, status: 204 });
  });

  it("fails a down message on every attempt the demo's relay makes; the attempt after (a person's resend) is taken", async () => {
    const [id] = idsOf("down", 1, 1);
    for (let attempt = 1; attempt <= DEMO_OUTBOX_MAX_ATTEMPTS; attempt++) expect(await send(id!)).toMatchObject({ ok: false, status: 500 });
    expect(await send(id!)).toMatchObject({ ok: true, status: 204 });
  });

  it("refuses a bad signature (401) and a message without its id (400), counting no attempt", async () => {
    const [id] = idsOf("flaky", 1, 100);
    expect(await send(id!, "order.paid", "not-the-secret")).toMatchObject({ ok: false, status: 401 });
    expect(await send(null)).toMatchObject({ ok: false, status: 400 });
    // The refused call was not the flaky message's first attempt: it still fails twice.
    expect([(await send(id!)).status, (await send(id!)).status, (await send(id!)).status]).toEqual([503, 503, 204]);
  });
});

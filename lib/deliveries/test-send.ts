import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { maybeOne } from "@/lib/db/sql";
import { getPool } from "@/lib/db/pool";
import { MESSAGE_ID_HEADER, TOPIC_HEADER } from "@/lib/jobs/signature";
import { CALL_TIMEOUT_MS } from "@/lib/jobs/leased-call";
import { postSigned } from "@/lib/jobs/signed-post";
import type { TestEndpoint } from "./test-endpoints";

// A test send (issue 27, item 4): a signed `ping` to one of a tenant's endpoints — its webhook, its
// grant endpoint, its revoke endpoint — signed and sent exactly as the worker's real calls are, so a
// game's team can check their verifier and their network path before a real event depends on it.
// It changes no order and enqueues nothing; the attempt is the audit fact.

/** The topic a ping carries in x-orderops-topic: a receiver acknowledges it and does nothing. */
export const PING_TOPIC = "ping";

/**
 * How long a ping waits: the relay's own per-request timeout, so "in time" means what it means for a
 * real delivery — an answer before the relay would have given up.
 */
export const TEST_TIMEOUT_MS = CALL_TIMEOUT_MS;

export type TestSendResult =
  | { readonly outcome: "not-configured"; readonly endpoint: TestEndpoint }
  | {
      readonly outcome: "answered" | "refused" | "no-answer";
      readonly endpoint: TestEndpoint;
      readonly url: string;
      /** The HTTP status; null when no answer came. */
      readonly status: number | null;
      readonly error: string | null;
      readonly latencyMs: number;
      /** Answered before TEST_TIMEOUT_MS. */
      readonly inTime: boolean;
      readonly timeoutMs: number;
    };

const settingsRow = z.object({ webhookUrl: z.string().nullable(), grantUrl: z.string().nullable(), revokeUrl: z.string().nullable(), secret: z.string() });

export async function testSend(input: {
  readonly tenantId: string;
  readonly endpoint: TestEndpoint;
  readonly actor: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly timeoutMs?: number;
}): Promise<TestSendResult> {
  const settings = await maybeOne(
    getPool(),
    settingsRow,
    `SELECT webhook_url AS "webhookUrl", grant_endpoint_url AS "grantUrl", revoke_endpoint_url AS "revokeUrl", signing_secret AS secret FROM tenant_settings WHERE tenant_id = $1`,
    [input.tenantId],
  );
  const url = settings ? { webhook: settings.webhookUrl, grant: settings.grantUrl, revoke: settings.revokeUrl }[input.endpoint] : null;
  if (!settings || !url) {
    await audit({ actor: input.actor, action: "webhook.test-sent", tenantId: input.tenantId, target: `tenant:${input.tenantId}`, detail: { endpoint: input.endpoint, outcome: "not-configured" } });
    return { outcome: "not-configured", endpoint: input.endpoint };
  }
  const timeoutMs = input.timeoutMs ?? TEST_TIMEOUT_MS;
  const pingId = `ping-${randomUUID()}`;
  const sent = await postSigned({
    fetch: input.fetch ?? globalThis.fetch,
    url,
    secret: settings.secret,
    body: JSON.stringify({ type: PING_TOPIC, tenantId: input.tenantId, endpoint: input.endpoint, pingId, sentAt: new Date().toISOString() }),
    headers: { [MESSAGE_ID_HEADER]: pingId, [TOPIC_HEADER]: PING_TOPIC },
    timeoutMs,
  });
  const status = sent.status;
  const result: TestSendResult = {
    outcome: sent.ok ? "answered" : status !== null ? "refused" : "no-answer",
    endpoint: input.endpoint,
    url,
    status,
    error: sent.ok ? null : sent.error,
    latencyMs: sent.exchange?.latencyMs ?? 0,
    inTime: status !== null,
    timeoutMs,
  };
  await audit({
    actor: input.actor,
    action: "webhook.test-sent",
    tenantId: input.tenantId,
    target: `tenant:${input.tenantId}`,
    detail: { endpoint: input.endpoint, url, outcome: result.outcome, status, error: result.error, latencyMs: result.latencyMs, inTime: result.inTime },
  });
  return result;
}

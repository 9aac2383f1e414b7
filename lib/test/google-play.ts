// A stand-in Google for tests: an OIDC issuer (an RSA key generated here, its JWKS served on a local
// port) that signs push tokens the way Pub/Sub does, the pushes themselves, and a local Play
// Developer API with a token endpoint and a paginated Voided Purchases list. The production code
// reaches them only through its configuration (GOOGLE_PUSH_JWKS_URL, GOOGLE_PUSH_ISSUERS, the
// poll's base URL and token provider).
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type KeyLike } from "jose";
import { NextRequest } from "next/server";
import { POST } from "@/app/api/v1/stores/google/notifications/[tenant]/route";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";

export const PACKAGE_NAME = "com.example.game";
export const PUSH_SERVICE_ACCOUNT = "play-push@example-project.iam.gserviceaccount.com";
export const pushAudience = (tenant: string) => `https://console.example.com/api/v1/stores/google/notifications/${tenant}`;

async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly privateKey: KeyLike;
  readonly close: () => Promise<void>;
}

/** An OIDC issuer on a local port: its JWKS at /certs, the issuer name its URL. */
export async function testIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key-1", alg: "RS256", use: "sig" };
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  const url = await listen(server);
  return { issuer: url, jwksUrl: `${url}/certs`, privateKey, close: () => close(server) };
}

export interface PushClaims {
  readonly aud?: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly iss?: string;
  /** Seconds since the epoch. */
  readonly exp?: number;
  readonly iat?: number;
}

/** A push's OIDC token as Pub/Sub mints it (RS256, an hour long), signed with `key`. */
export async function pushToken(issuer: TestIssuer, claims: PushClaims & { tenant: string }, key: KeyLike = issuer.privateKey): Promise<string> {
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({ email: claims.email ?? PUSH_SERVICE_ACCOUNT, email_verified: claims.email_verified ?? true, sub: "1234567890" })
    .setProtectedHeader({ alg: "RS256", kid: "test-key-1", typ: "JWT" })
    .setIssuer(claims.iss ?? issuer.issuer)
    .setAudience(claims.aud ?? pushAudience(claims.tenant))
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 3600)
    .sign(key);
}

export interface TestPush {
  readonly messageId?: string;
  readonly packageName?: string;
  readonly eventTimeMillis: number;
  readonly voided?: { readonly orderId: string; readonly purchaseToken?: string; readonly refundType?: 1 | 2 };
  readonly kind?: "oneTimeProductNotification" | "subscriptionNotification" | "testNotification";
}

/** The JSON Pub/Sub posts for one developer notification. */
export function pushBody(p: TestPush): { message: { data: string; messageId: string; message_id: string; publishTime: string; attributes: Record<string, string> }; subscription: string } {
  const notification = {
    version: "1.0",
    packageName: p.packageName ?? PACKAGE_NAME,
    eventTimeMillis: String(p.eventTimeMillis),
    ...(p.voided
      ? { voidedPurchaseNotification: { purchaseToken: p.voided.purchaseToken ?? `token-${p.voided.orderId}`, orderId: p.voided.orderId, productType: 2, refundType: p.voided.refundType ?? 1 } }
      : {}),
    ...(p.kind === "oneTimeProductNotification" ? { oneTimeProductNotification: { version: "1.0", notificationType: 1, purchaseToken: "t", sku: "gems.60" } } : {}),
    ...(p.kind === "subscriptionNotification" ? { subscriptionNotification: { version: "1.0", notificationType: 4, purchaseToken: "t", subscriptionId: "vip" } } : {}),
    ...(p.kind === "testNotification" ? { testNotification: { version: "1.0" } } : {}),
  };
  const messageId = p.messageId ?? String(Math.floor(Math.random() * 1e15));
  return {
    message: { data: Buffer.from(JSON.stringify(notification)).toString("base64"), messageId, message_id: messageId, publishTime: new Date(p.eventTimeMillis).toISOString(), attributes: {} },
    subscription: "projects/example-project/subscriptions/play-refunds",
  };
}

/** POSTs a push to the route as Pub/Sub does (with `token` as its bearer, if any); answers the status and the JSON. */
export async function postGooglePush(tenant: string, body: unknown, token: string | null): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await POST(
    new NextRequest("http://localhost/api/v1/stores/google/notifications/x", {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ tenant }) },
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A tenant connected to the test Google Play app and push subscription. */
export async function connectedGoogleTenant(id: string, packageName: string | null = PACKAGE_NAME): Promise<void> {
  await ensureTenant(getPool(), tenantSpec(id));
  const [settings] = await listTenantSettings([id]);
  const value = packageName
    ? { packageName, pushAudience: pushAudience(id), pushServiceAccount: PUSH_SERVICE_ACCOUNT }
    : { packageName: null, pushAudience: null, pushServiceAccount: null };
  await updateTenantSettings(id, settings!.updatedAt, { field: "google_play", value }, "staff:manager@example.com");
}

export interface FakeVoid {
  readonly orderId: string;
  readonly voidedTimeMillis: number;
  readonly purchaseToken?: string;
  readonly voidedQuantity?: number;
}

export interface FakePlayApi {
  readonly url: string;
  /** What the fake lists, per package name; tests change it between polls. */
  readonly voids: Map<string, FakeVoid[]>;
  /** Every list request: its query and bearer token. */
  readonly requests: { packageName: string; query: Record<string, string>; authorization: string | null }[];
  /** The service account emails the token endpoint issued tokens for. */
  readonly tokensIssued: string[];
  /** Answer the next list request with this status instead. */
  failNext: number | null;
  readonly close: () => Promise<void>;
}

const ACCESS_TOKEN = "ya29.test-access-token";

/**
 * The Play Developer API on a local port: POST /token (the JWT bearer grant; it answers
 * ACCESS_TOKEN), and the Voided Purchases list, which wants that token, honours startTime/endTime
 * and serves `pageSize` entries a page with nextPageToken.
 */
export async function fakePlayApi(pageSize = 2): Promise<FakePlayApi> {
  const api: FakePlayApi = {
    url: "",
    voids: new Map(),
    requests: [],
    tokensIssued: [],
    failNext: null,
    close: async () => undefined,
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(await text(req));
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(400, { error: "unsupported_grant_type" });
      api.tokensIssued.push(String(decodeJwt(form.get("assertion") ?? "").iss));
      return json(200, { access_token: ACCESS_TOKEN, expires_in: 3599, token_type: "Bearer" });
    }
    const match = url.pathname.match(/^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/voidedpurchases$/);
    if (req.method !== "GET" || !match) return json(404, { error: { code: 404 } });
    const packageName = decodeURIComponent(match[1]!);
    api.requests.push({ packageName, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization ?? null });
    if (api.failNext !== null) {
      const status = api.failNext;
      api.failNext = null;
      return json(status, { error: { code: status, message: "backend error" } });
    }
    if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) return json(401, { error: { code: 401 } });
    const start = Number(url.searchParams.get("startTime"));
    const end = Number(url.searchParams.get("endTime"));
    const all = (api.voids.get(packageName) ?? []).filter((v) => v.voidedTimeMillis >= start && v.voidedTimeMillis <= end);
    const offset = Number(url.searchParams.get("token") ?? 0);
    const page = all.slice(offset, offset + pageSize);
    return json(200, {
      pageInfo: { totalResults: all.length, resultPerPage: pageSize, startIndex: offset },
      ...(offset + pageSize < all.length ? { tokenPagination: { nextPageToken: String(offset + pageSize) } } : {}),
      voidedPurchases: page.map((v) => ({
        kind: "androidpublisher#voidedPurchase",
        purchaseToken: v.purchaseToken ?? `token-${v.orderId}`,
        purchaseTimeMillis: String(v.voidedTimeMillis - 86_400_000),
        voidedTimeMillis: String(v.voidedTimeMillis),
        orderId: v.orderId,
        voidedSource: 0,
        voidedReason: 1,
        ...(v.voidedQuantity !== undefined ? { voidedQuantity: v.voidedQuantity } : {}),
      })),
    });
  });
  const url = await listen(server);
  return Object.assign(api, { url, close: () => close(server) });
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const googleOrderId = () => `GPA.${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}-${Math.floor(Math.random() * 1e5)}`;

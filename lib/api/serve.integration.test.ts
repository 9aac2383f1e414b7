import http from "node:http";
import type { AddressInfo } from "node:net";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { webListener } from "@/lib/process/listener";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { signInAs, signOut } from "@/lib/test/session";
import { routesFromSource } from "./serve";

// The web process's listener (lib/process/listener.ts) with the routes it serves (lib/api/serve.ts): the
// machine-to-machine routes and the console's JSON routes answered without Next, everything else handed to Next with the
// request's id, the caller's address and the nonce's policy — over real HTTP, on a real database.

useFreshDatabase();

let base = "";
let key = "";
let server: http.Server;
/** What reached the fallback (Next, in production): method and path. */
const handedOn: string[] = [];
/** The request headers the fallback saw, by path. */
const seen = new Map<string, http.IncomingHttpHeaders>();

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("serve"));
  key = (await createApiKey({ tenantId: "serve", name: "channel", actor: "test" })).key;
  await createOrder(getPool(), { tenantId: "serve", orderNo: "SRV-1", amount: 6_00 });
  const routes = await routesFromSource();
  server = http.createServer(
    webListener(routes, (req, res) => {
      handedOn.push(`${req.method} ${req.url}`);
      seen.set(req.url ?? "", { ...req.headers });
      res.writeHead(299).end("next");
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const pay = (orderNo: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/orders/${orderNo}/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ event: "pay", bizKey: "txn-1", amount: 6_00 }),
  });

describe("the web process's listener", () => {
  it("answers a pay itself: applied once, a duplicate after, with the request id and the security headers", async () => {
    const first = await pay("SRV-1", { "x-request-id": "req-from-channel" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ result: "applied", order: { orderNo: "SRV-1", state: "paid" } });
    expect(first.headers.get("x-request-id")).toBe("req-from-channel");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("content-security-policy")).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[^']+' 'strict-dynamic';.*frame-ancestors 'none'/);

    const again = await pay("SRV-1");
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ result: "duplicate" });
    expect(again.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM order_transitions t JOIN orders o ON o.id = t.order_id WHERE o.order_no = 'SRV-1' AND t.event = 'pay'`);
    expect(rows[0].n).toBe(1);
    expect(handedOn).toEqual([]);
  });

  it("decodes the path's parameters, and answers a malformed escape 404 as JSON", async () => {
    const unknown = await pay("SRV%2D2");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "not-found", message: "No order SRV-2." } });
    const malformed = await pay("%E0%A4%A");
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toEqual({ error: { code: "not-found", message: "Not found." } });
    expect(handedOn).toEqual([]);
  });

  it("answers 401 without a key, as the route does under Next, with every security header", async () => {
    const response = await fetch(`${base}/api/v1/orders/SRV-1`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthenticated" } });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("object-src 'none'");
    expect(response.headers.get("strict-transport-security")).toBeNull();
    const https = await fetch(`${base}/api/v1/orders/SRV-1`, { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
  });

  it("hands everything else to Next: pages, the route both keys and staff read, unknown paths and methods", async () => {
    handedOn.length = 0;
    for (const [method, url] of [
      ["GET", "/orders"],
      ["GET", "/api/v1/openapi.json"],
      ["GET", "/api/v1/nothing-here"],
      ["DELETE", "/api/v1/orders/SRV-1/events"],
      ["POST", "/api/v1/orders/SRV-1/events/"],
      ["POST", "/api/console/queues"],
      ["GET", "/api/console/nothing-here"],
    ] as const) {
      const response = await fetch(`${base}${url}`, { method });
      expect(response.status, `${method} ${url}`).toBe(299);
    }
    expect(handedOn).toEqual([
      "GET /orders",
      "GET /api/v1/openapi.json",
      "GET /api/v1/nothing-here",
      "DELETE /api/v1/orders/SRV-1/events",
      "POST /api/v1/orders/SRV-1/events/",
      "POST /api/console/queues",
      "GET /api/console/nothing-here",
    ]);
  });

  it("answers the console's JSON routes itself, with the session the request's cookie carries", async () => {
    handedOn.length = 0;
    signOut();
    const anonymous = await fetch(`${base}/api/console/queues`, { headers: { "accept-language": "zh-CN" } });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string; message: string } }).error.code).toBe("unauthenticated");
    signInAs("agent", ["serve"]);
    const signedIn = await fetch(`${base}/api/console/me`);
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain("agent@example.com");
    expect(handedOn).toEqual([]);
  });

  it("gives what it hands on the request's id, the caller's socket address and the policy's nonce; a client's copies are not believed", async () => {
    const response = await fetch(`${base}/orders?q=1`, {
      headers: { "x-request-id": "ticket-42", "x-forwarded-for": "203.0.113.7", [CLIENT_ADDRESS_HEADER]: "203.0.113.8", "content-security-policy": "script-src *" },
    });
    expect(response.status).toBe(299);
    const headers = seen.get("/orders?q=1")!;
    expect(headers["x-request-id"]).toBe("ticket-42");
    expect(response.headers.get("x-request-id")).toBe("ticket-42");
    // No proxy is trusted: the caller is the socket's peer, whatever it wrote.
    expect(headers[CLIENT_ADDRESS_HEADER]).toBe("127.0.0.1");
    // Next reads the nonce for its scripts from the request's policy: the one the browser gets.
    expect(headers["content-security-policy"]).toBe(response.headers.get("content-security-policy"));
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(response.headers.get("x-frame-options")).toBe("DENY");

    const odd = await fetch(`${base}/orders?q=2`, { headers: { "x-request-id": `<script>${"x".repeat(200)}` } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("believes X-Forwarded-For from a trusted proxy only", async () => {
    vi.stubEnv("TRUSTED_PROXIES", "127.0.0.1");
    try {
      await fetch(`${base}/orders?q=3`, { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7" } });
      expect(seen.get("/orders?q=3")![CLIENT_ADDRESS_HEADER]).toBe("203.0.113.7");
    } finally {
      vi.unstubAllEnvs();
    }
    await fetch(`${base}/orders?q=4`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(seen.get("/orders?q=4")![CLIENT_ADDRESS_HEADER]).toBe("127.0.0.1");
  });

  it("takes every API-key and store route under app/api/v1 and every staff-session route under app/api/console, and no other", async () => {
    const expected: string[] = [];
    for (const [base, auths] of [
      [["api", "v1"], ["api-key", "store-signature"]],
      [["api", "console"], ["staff-session"]],
    ] as const) {
      const dir = path.join(process.cwd(), "app", ...base);
      const files = (await readdir(dir, { recursive: true })).filter((f) => path.basename(f) === "route.ts");
      for (const file of files) {
        const exports = (await import(path.join(dir, file))) as Record<string, { auth?: string }>;
        for (const [method, handler] of Object.entries(exports)) {
          if ((auths as readonly string[]).includes(handler.auth ?? "")) expected.push(`${method} ${path.join("app", ...base, file)}`);
        }
      }
    }
    const served = (await routesFromSource()).flatMap((route) => [...route.handlers.keys()].map((method) => `${method} ${route.file}`));
    expect(served.sort()).toEqual(expected.sort());
    expect(served).toContain("POST app/api/v1/orders/[orderNo]/events/route.ts");
    expect(served).toContain("GET app/api/console/orders/[tenant]/[orderNo]/page/route.ts");
    expect(served).not.toContain("GET app/api/v1/openapi.json/route.ts");
  });
});

import { request as playwrightRequest, type APIResponse, type Page } from "@playwright/test";
import { E2E_PORT } from "./env";
import { DEMO_PASSWORD, expect, signIn, test } from "./fixtures";

// The browser surface, against the built app: security headers on every kind of response, a CSP
// whose nonce Next really puts on its scripts, and pages that run under it without one violation.

const BASE = `http://127.0.0.1:${E2E_PORT}`;

function expectFixedHeaders(response: APIResponse, what: string): void {
  const headers = response.headers();
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"], what).toContain("camera=()");
  expect(headers["x-frame-options"], what).toBe("DENY");
}

function cspOf(response: APIResponse): { raw: string; directives: Map<string, string[]> } {
  const raw = response.headers()["content-security-policy"] ?? "";
  const directives = new Map(
    raw
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
  return { raw, directives };
}

test("headers: every kind of response carries the security headers; pages and API a strict CSP", async ({ request }) => {
  const signInPage = await request.get("/sign-in");
  const anonymousRedirect = await request.get("/orders", { maxRedirects: 0 });
  const api = await request.get("/api/console/overview");
  const apiV1 = await request.get("/api/v1/orders/none");
  const html = await signInPage.text();
  const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
  expect(asset, "the sign-in page loads Next's scripts").toBeDefined();
  const script = await request.get(asset!);

  expect(signInPage.status()).toBe(200);
  expect(anonymousRedirect.status()).toBe(307);
  expect(api.status()).toBe(401);
  expect(apiV1.status()).toBe(401);
  expect(script.status()).toBe(200);
  for (const [what, response] of Object.entries({ signInPage, anonymousRedirect, api, apiV1, script })) expectFixedHeaders(response, what);

  for (const [what, response] of Object.entries({ signInPage, anonymousRedirect, api, apiV1 })) {
    const { raw, directives } = cspOf(response);
    expect(directives.get("frame-ancestors"), `${what}: ${raw}`).toEqual(["'none'"]);
    expect(directives.get("object-src"), what).toEqual(["'none'"]);
    expect(directives.get("base-uri"), what).toEqual(["'self'"]);
    const scripts = directives.get("script-src") ?? [];
    expect(scripts.some((s) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(s)), `${what}: ${raw}`).toBe(true);
    expect(scripts, what).toContain("'strict-dynamic'");
    expect(scripts, what).not.toContain("'unsafe-eval'");
    expect(scripts, what).not.toContain("'unsafe-inline'");
    expect(directives.get("style-src"), what).not.toContain("'unsafe-inline'");
    // Plain HTTP: no HSTS, no upgrading of subresources to an HTTPS port nobody serves.
    expect(response.headers()["strict-transport-security"], what).toBeUndefined();
    expect(directives.has("upgrade-insecure-requests"), what).toBe(false);
  }

  // The nonce is fresh per response and is the one on the page's scripts.
  const nonce = /'nonce-([^']+)'/.exec(cspOf(signInPage).raw)![1]!;
  expect(/'nonce-([^']+)'/.exec(cspOf(await request.get("/sign-in")).raw)![1]).not.toBe(nonce);
  const scriptTags = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scriptTags.length).toBeGreaterThan(0);
  for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonce}"`);
});

test("headers: behind an HTTPS proxy, HSTS is sent and the session cookie is Secure", async () => {
  const https = { "x-forwarded-proto": "https" };
  // A context of its own, without a cookie jar in the way: the Secure cookies travel by hand.
  const api = await playwrightRequest.newContext({ baseURL: BASE, extraHTTPHeaders: https });
  try {
    const page = await api.get("/sign-in");
    expect(page.headers()["strict-transport-security"]).toMatch(/^max-age=\d{8,}/);
    expect(cspOf(page).directives.has("upgrade-insecure-requests")).toBe(true);

    const csrf = await api.get("/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = setCookies(csrf).find((c) => c.startsWith("__Host-next-auth.csrf-token="));
    expect(csrfCookie, "the CSRF cookie is __Host- prefixed behind HTTPS").toBeDefined();

    const signedIn = await api.post("/api/auth/callback/credentials", {
      headers: { cookie: csrfCookie!.split(";")[0]! },
      form: { csrfToken, email: "agent@example.com", password: DEMO_PASSWORD, json: "true" },
      maxRedirects: 0,
    });
    expect(signedIn.status()).toBe(200);
    const session = setCookies(signedIn).find((c) => c.startsWith("__Secure-next-auth.session-token="));
    expect(session, setCookies(signedIn).join("\n")).toBeDefined();
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
  } finally {
    await api.dispose();
  }
});

function setCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
}

/** Collects CSP violations (the browser's own event, and its console report) and page errors. */
async function watchViolations(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.exposeFunction("__reportCspViolation", (text: string) => problems.push(`violation: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  return problems;
}

test("headers: the console's pages run under the CSP without a violation", async ({ page, db }) => {
  // Twelve pages and two sign-ins: 43 s alone on a 2-core machine, past the default 60 s when the
  // machine is busy — the same budget as the other every-page specs.
  test.setTimeout(180_000);
  const problems = await watchViolations(page);
  const order = (await db.query(`SELECT tenant_id, order_no FROM orders WHERE tenant_id = 'xiaoxiao' ORDER BY id LIMIT 1`)).rows[0];

  await signIn(page, "manager@example.com");
  for (const path of ["/", "/orders", `/orders/${order.tenant_id}/${order.order_no}`, "/queues", "/audit", "/approvals", "/bulk", "/settings", "/dashboard"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  }
  // Hydrated, not just rendered: the charts only draw in the browser.
  await expect(page.locator(".recharts-surface").first()).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, "admin@example.com");
  for (const path of ["/admin/users", "/admin/api-keys", "/admin/api-docs"]) {
    expect((await page.goto(path))?.status(), path).toBe(200);
  }
  expect(problems).toEqual([]);

  // The watcher hears violations, and the policy bites: markup injected the way XSS is (an inline
  // event handler) does not run.
  await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", `<img src="/no-such-image.png" onerror="window.__injected = true">`));
  await expect.poll(() => problems.join("\n")).toContain("script-src");
  expect(await page.evaluate(() => "__injected" in window)).toBe(false);
});

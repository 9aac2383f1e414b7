// The headers that fence the console in the browser, written for every request and response by the
// web process's listener (lib/process/listener.ts): the per-request ones here (the Content-
// Security-Policy with its nonce, HSTS over HTTPS), the ones that never change (nosniff,
// Referrer-Policy, Permissions-Policy, X-Frame-Options) in static-headers.json.

/** Two years, the preload list's minimum; only ever sent on responses that came over HTTPS. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * Whether the request reached us over HTTPS: NEXTAUTH_URL says so, or the proxy in front does.
 * Believing X-Forwarded-Proto is harmless for what hangs on it (HSTS, Secure cookies, upgrading
 * subresources): a client that lies only breaks its own plain-HTTP session.
 */
export function servedOverHttps(headers: Headers | Record<string, string | string[] | undefined>): boolean {
  if (process.env.NEXTAUTH_URL?.startsWith("https://")) return true;
  const proto = headers instanceof Headers ? headers.get("x-forwarded-proto") : [headers["x-forwarded-proto"]].flat()[0];
  return proto?.split(",")[0]?.trim().toLowerCase() === "https";
}

/** A fresh, unguessable nonce for one response's scripts and styles. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The Content-Security-Policy of one response. Scripts run only with this response's nonce (Next
 * puts it on its own scripts and inline data when it finds it in the request's CSP header), and
 * what they load inherits that trust ('strict-dynamic'), so an injected <script> runs nowhere.
 * <style> elements need the nonce too; style *attributes* are allowed: the progress bars and charts
 * set widths inline, and an attribute cannot run script — injected <style> rules, the ones that can
 * read the page through selectors, stay blocked. Development adds what React's dev build needs
 * (eval for its error overlays, unnonced style tags for hot reloading); production never does.
 */
export function contentSecurityPolicy(nonce: string, options: { readonly dev: boolean; readonly https: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    options.dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Over plain HTTP (the local demo) this would send every subresource to an HTTPS port nobody serves.
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

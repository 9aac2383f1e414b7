import createNextIntlPlugin from "next-intl/plugin";
import SECURITY_HEADERS from "./lib/http/static-headers.json" with { type: "json" };

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Security headers that never vary, on every response (static files included), kept in
// lib/http/static-headers.json for the integration API's own listener too (lib/api/serve.ts): nosniff,
// the Referrer-Policy, a Permissions-Policy that grants nothing the console does not need (nor a
// script that got in), and X-Frame-Options for browsers that predate CSP's frame-ancestors 'none'.
// The per-request ones (Content-Security-Policy with its nonce, HSTS over HTTPS) are set by proxy.ts.

/** @type {import('next').NextConfig} */
const nextConfig = {
  // pino and pg are plain Node libraries: load them from node_modules rather than bundling them.
  serverExternalPackages: ["pino", "pg", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default withNextIntl(nextConfig);

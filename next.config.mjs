import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Security headers that never vary, on every response (static files included). The per-request ones
// (Content-Security-Policy with its nonce, HSTS over HTTPS) are set by proxy.ts.
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // The console needs none of these; a script that got in cannot ask for them either.
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), interest-cohort=()",
  },
  // frame-ancestors 'none' (in the CSP) for browsers that predate it.
  { key: "X-Frame-Options", value: "DENY" },
];

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

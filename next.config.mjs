import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Every response's headers (the request id, the Content-Security-Policy, the fixed security headers)
// are written by the web process's listener (lib/process/listener.ts), which serves Next in production
// and in development alike.

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The build directory: one per node of a deployment, or per test node (scripts/build.mjs).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Two nodes built apart must agree on the build id (their pages name /_next/static/<id>/ files the
  // other node serves): scripts/build.mjs derives it from the sources' contents.
  ...(process.env.ORDEROPS_BUILD_ID ? { generateBuildId: () => process.env.ORDEROPS_BUILD_ID } : {}),
  // Type-checking is `npm run lint`'s job (and CI's), not every build's: it was 15-24 s of a first start.
  typescript: { ignoreBuildErrors: true, tsconfigPath: "tsconfig.next.json" },
  // Turbopack's build cache costs a first build 10-14 s to write and only helps a second build of
  // the same directory; a deployment builds once, and developers rebuild with `npm run dev`.
  experimental: { turbopackFileSystemCacheForBuild: false },
  // pino and pg are plain Node libraries: load them from node_modules rather than bundling them.
  serverExternalPackages: ["pino", "pg", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  poweredByHeader: false,
};

export default withNextIntl(nextConfig);

import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // pino and pg are plain Node libraries: load them from node_modules rather than bundling them.
  serverExternalPackages: ["pino", "pg", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  poweredByHeader: false,
};

export default withNextIntl(nextConfig);

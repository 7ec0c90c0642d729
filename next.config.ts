import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const nextConfig: NextConfig = {
  // The API keeps new-api's paths, several of which end in a slash (POST /api/user/).
  // server.ts strips that slash before Next sees the request; no redirect is wanted.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Native and WASM database drivers are loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg", "ioredis"],
  devIndicators: false,
};

export default withNextIntl(nextConfig);

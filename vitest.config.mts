import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Four projects: unit tests (no server); the integration suite twice, once per database
// (each test file starts the real built server on a fresh database of that kind); and the
// browser tests (playwright-core driving Debian's Chromium against the real server).
export default defineConfig({
  // `server-only` throws unless resolved for React Server Components; tests import server
  // modules directly, as server.ts does (tsconfig.server.json maps it the same way).
  resolve: { tsconfigPaths: true, alias: { "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)) } },
  test: {
    // Integration files mostly wait on their own server process: three at a time keep both
    // cores busy. The browser files run after them (their own group), two at a time.
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      {
        extends: true,
        test: {
          name: "integration-sqlite",
          include: ["tests/integration/**/*.test.ts"],
          env: { TEST_DB: "sqlite" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration-postgresql",
          include: ["tests/integration/**/*.test.ts"],
          env: { TEST_DB: "postgresql" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

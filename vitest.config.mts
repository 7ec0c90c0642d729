import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

// The projects: unit tests (no server); the integration suite twice, once per database
// (each test file starts the real built server on a fresh database of that kind); the
// browser tests (playwright-core driving Debian's Chromium against the real server); and the
// timed integration files, alone at the end.

// Files that time the server's answers (to other clients while it does heavy work, a 30 MB
// body; the console's lists at 10,000 channels and tokens): beside other test servers on two
// cores they measure the neighbours' load rather than the server, so they run alone after
// everything else.
const TIMED = ["tests/integration/relay-body-bound.test.ts", "tests/integration/console-scale.test.ts"];
// The browser file that times every page's cold load against its 1 s bound (docs/console-ui.md,
// "Cold load"): alone, after everything else, for the same reason; and only with COLD_LOAD=1
// (its pages are not all under the bound on a full run here, and it costs two minutes of a run
// that must stay under 30).
const TIMED_E2E = ["tests/e2e/cold-load.test.ts"];
// Integration files whose subject does not depend on the database (the relay's protocols, the
// outbound policy, texts, sign-in providers, mail, webhooks, tracing): SQLite only. Every file
// that touches what differs between the two (money and its ledger, logs and rollups, SQL of its
// own, concurrency, migrations, the cluster, sessions) runs on both (docs/conventions.md, "Tests").
const DIALECT_FREE = [
  "body-limits",
  "branding",
  "console-texts",
  "languages",
  "mail",
  "messages",
  "mj-image",
  "model-mapping",
  "notifications",
  "oauth",
  "openapi",
  "outbound",
  "own-keys",
  "periodic-channel-jobs",
  "preset-actions",
  "preset-prices",
  "providers",
  "rate-limit",
  "relay-health",
  "relay-option-effects",
  "relay-options",
  "relay-redaction",
  "rerank",
  "responses",
  "route-params",
  "secrets",
  "status",
  "stream-idle",
  "tracing",
  "turnstile",
  "two-factor",
  "user-urls",
  "worker",
].map((name) => `tests/integration/${name}.test.ts`);
const COLD_LOAD = process.env.COLD_LOAD === "1";

// The slowest files of their groups (about 1.5 to 5 minutes each on the two-core CI machine),
// started first: a fresh clone has no timings of its own, and one of them started last would
// leave the other workers idle while it ends the run.
const SLOW_FIRST = [
  "tests/e2e/languages.test.ts",
  "tests/e2e/operator-console.test.ts",
  "tests/e2e/relay-console.test.ts",
  "tests/e2e/settings-pricing.test.ts",
  "tests/e2e/inbox-chat.test.ts",
  "tests/integration/tasks.test.ts",
  "tests/integration/dashboard.test.ts",
];
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    // a stable sort: the groups and projects keep the base order, the slow files lead within them
    const base = await super.sort(files);
    const key = (f: TestSpecification) => `${f.project.config.sequence.groupOrder}\0${f.project.name}`;
    return base
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (key(a.f) === key(b.f) ? rank(a.f) - rank(b.f) || a.i - b.i : a.i - b.i))
      .map(({ f }) => f);
  }
}

export default defineConfig({
  // `server-only` throws unless resolved for React Server Components; tests import server
  // modules directly, as server.ts does (tsconfig.server.json maps it the same way).
  resolve: { tsconfigPaths: true, alias: { "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)) } },
  test: {
    // Integration files mostly wait on their own server process: three at a time keep both
    // cores busy. The browser files run after them (their own group), two at a time.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    projects: [
      // Some unit files do real work (a TypeScript scan of the per-request sources, 10,000
      // words compiled, a 3 s reconnect): 3-4 s quiet, over 8 s beside the integration servers.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: "integration-sqlite",
          include: ["tests/integration/**/*.test.ts"],
          exclude: TIMED,
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
          exclude: [...TIMED, ...DIALECT_FREE],
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
          exclude: TIMED_E2E,
          // a page's answer to a click (a fetch through the server, a render) took over the
          // default 1 s on a loaded machine: polls wait up to 10 s, and still fail when the
          // thing never shows
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      // The timed files last, one at a time, each database in its own group.
      ...(["sqlite", "postgresql"] as const).map((db, i) => ({
        extends: true,
        test: {
          name: `timed-${db}`,
          include: TIMED,
          env: { TEST_DB: db },
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 + i },
        },
      })),
      ...(COLD_LOAD ? [timedE2e()] : []),
    ],
  },
});

function timedE2e() {
  return {
    extends: true,
    test: {
      name: "timed-e2e",
      include: TIMED_E2E,
      testTimeout: 300_000,
      hookTimeout: 120_000,
      maxWorkers: 1,
      sequence: { groupOrder: 4 },
    },
  };
}

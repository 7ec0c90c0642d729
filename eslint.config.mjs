// ESLint (flat config): Next's core-web-vitals and TypeScript rules, typescript-eslint's
// recommended rules, and the project's own rule for the per-request path (eslint-rules/).
// `npm run lint`; `npm test` runs it before the build.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import local from "./eslint-rules/index.mjs";

// What runs per call or per request on the server (docs/conventions.md); the same list as
// tests/unit/hot-path-objects.test.ts.
const PER_REQUEST = [
  "server.ts",
  "lib/relay/**/*.ts",
  "lib/billing/**/*.ts",
  "lib/logs/**/*.ts",
  "lib/http/**/*.ts",
  "lib/auth/**/*.ts",
  "lib/options/**/*.ts",
  "lib/cache/**/*.ts",
  "lib/db/**/*.ts",
  "lib/metrics/**/*.ts",
  "lib/tracing/**/*.ts",
  "lib/ops/**/*.ts",
  "lib/channels/channel-cache.ts",
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(["node_modules/**", ".next/**", "dist/**", "generated/**", "test-results/**", "next-env.d.ts"]),
  {
    rules: {
      // A leading underscore marks a value left out on purpose (`const { key: _key, ...rest }`).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // The React Compiler rules of react-hooks 7. The console is not compiled by it, and its
      // effects set state on purpose: they read browser-only state (local storage, theme) after
      // hydration and start fetches, which the server render cannot do.
      "react-hooks/set-state-in-effect": "off",
      // It takes a Date.now() in an event handler declared in the component body for one
      // made during render.
      "react-hooks/purity": "off",
      // Login, logout and setup reload the whole page on purpose, so that the server-rendered
      // layout is rebuilt with the new session (docs/console-ui.md).
      "@next/next/no-location-assign-relative-destination": "off",
    },
  },
  {
    // Tests read untyped JSON bodies and SDK results.
    files: ["tests/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    plugins: { local },
    files: PER_REQUEST,
    rules: { "local/hot-path-spread": "error" },
  },
  {
    // maps keyed by names people type (docs/conventions.md, "Own keys")
    plugins: { local },
    files: ["lib/**/*.ts", "components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "server.ts", "scripts/**/*.{ts,mjs}"],
    rules: { "local/own-keys": "error" },
  },
]);

// The server's log: one JSON object per line on stdout (pino), level from LOG_LEVEL (info by
// default). Each area of the program logs through its own child (`logger("relay")` adds
// {"area":"relay"}). docs/operations.md, "Logs".
//
// The destination is pino's own (sonic-boom on fd 1), written asynchronously on the main
// thread: no worker-thread transport (the server is one esbuild bundle, and a transport's
// worker would have to load pino's files from elsewhere). What is still buffered when the
// process exits is written by flushLog(), which the shutdown and the start-up failure call.
//
// One root logger per process, kept on globalThis: the esbuild bundle of server.ts and Next's
// bundles of app/ each have their own copy of this module, and two sonic-booms on fd 1 could
// interleave the halves of a long line.
import pino, { type Logger } from "pino";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

// Unknown values fall back to info here; lib/env.ts refuses them at start-up.
export function logLevelOf(value: string | undefined): LogLevel {
  const v = (value ?? "").trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(v) ? (v as LogLevel) : "info";
}

const CENSOR = "[redacted]";
// Field names whose values never reach a line, at the top of the object logged or one level
// down (pino's redact, fast-redact paths): credentials of any kind. Messages are not
// inspected: callers log errors through describeError() (lib/errors.ts), which masks what is
// shaped like a secret, and never put a key into a message.
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "key",
  "apiKey",
  "api_key",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "sessionSecret",
  "encryptionKey",
  '["x-api-key"]',
  '["x-goog-api-key"]',
  '["api-key"]',
  '["proxy-authorization"]',
  '["set-cookie"]',
];
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => (f.startsWith("[") ? `*${f}` : `*.${f}`)),
  ...SECRET_FIELDS.map((f) => (f.startsWith("[") ? `*.headers${f}` : `*.headers.${f}`)),
];

type Root = { logger: Logger; destination: ReturnType<typeof pino.destination> };
const holder = globalThis as unknown as { __gatewayLog?: Root };

function createRoot(): Root {
  // minLength 0: every line is handed to the kernel as soon as the previous write finished
  const destination = pino.destination({ dest: 1, sync: false, minLength: 0 });
  // A reader that went away (a supervisor or test runner that died): the lines are lost, the
  // server goes on serving (EPIPE must not become an uncaught error).
  destination.on("error", () => {});
  const logger = pino(
    {
      level: logLevelOf(process.env.LOG_LEVEL),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
    },
    destination,
  );
  return { logger, destination };
}

const root = (): Root => (holder.__gatewayLog ??= createRoot());

/** The logger of one area of the program: every line carries {"area": area}. */
export function logger(area: string): Logger {
  return root().logger.child({ area });
}

/** The destination every line is written to (tests spy on its write()). */
export const logDestination = (): Root["destination"] => root().destination;

/** Writes what is still buffered, synchronously (before process.exit). */
export function flushLog(): void {
  const d = holder.__gatewayLog?.destination;
  if (!d) return;
  try {
    d.flushSync();
  } catch {
    // not open yet, or the reader is gone: nothing more can be written
  }
}

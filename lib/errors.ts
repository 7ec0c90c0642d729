// The one error family. Verbs throw AppError with a code and a message key; the HTTP edges
// map it with the one table below: the console's {success:false, message} envelope
// (lib/http/route.ts) and the relay's OpenAI, Anthropic and Gemini error shapes
// (lib/relay/handler.ts). Anything that is not an AppError (or, on the relay, a RelayError)
// becomes a generic internal error whose details never reach the client.
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";

export type ErrorCode =
  | "INVALID_INPUT" // the request is malformed or breaks a validation rule
  | "RULE" // a business rule refuses the action (same-or-higher level, root protection...)
  | "NOT_FOUND"
  | "UNAUTHENTICATED" // no valid session or credential
  | "FORBIDDEN" // authenticated but lacking the role
  | "BANNED" // authenticated, but the account is disabled
  | "RATE_LIMITED"
  | "QUOTA_EXCEEDED"
  | "DEMO_REFUSED"
  | "PAYLOAD_TOO_LARGE"
  | "UPSTREAM" // the upstream provider failed
  | "NO_CHANNEL"
  | "INTERNAL";

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly key: MessageKey,
    readonly params?: MessageParams,
  ) {
    super(key);
    this.name = "AppError";
  }
}

export const fail = (code: ErrorCode, key: MessageKey, params?: MessageParams): never => {
  throw new AppError(code, key, params);
};

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

// Per code: the console API's HTTP status, and the relay's HTTP status and error type (the
// `type` of an OpenAI-style error). On the console, business refusals answer 200 with
// success:false and the console shows their message as is; the others use the status, and
// for 401, 403, 405, 429 and 500 the client shows its own texts (docs/product-rules.md,
// "Errors the console shows").
const ERROR_MAP: Record<ErrorCode, { console: number; relay: number; relayType: string }> = {
  INVALID_INPUT: { console: 200, relay: 400, relayType: "invalid_request_error" },
  RULE: { console: 200, relay: 400, relayType: "invalid_request_error" },
  NOT_FOUND: { console: 200, relay: 404, relayType: "invalid_request_error" },
  QUOTA_EXCEEDED: { console: 200, relay: 403, relayType: "insufficient_quota" },
  NO_CHANNEL: { console: 200, relay: 503, relayType: "no_available_channel" },
  UPSTREAM: { console: 200, relay: 500, relayType: "invalid_request_error" },
  UNAUTHENTICATED: { console: 401, relay: 401, relayType: "authentication_error" },
  FORBIDDEN: { console: 403, relay: 403, relayType: "permission_error" },
  // a business refusal on the console (its message, "banned", is shown as is; a 403 would
  // show "insufficient permission"), a 403 on the relay (the playground)
  BANNED: { console: 200, relay: 403, relayType: "permission_error" },
  DEMO_REFUSED: { console: 405, relay: 405, relayType: "invalid_request_error" },
  PAYLOAD_TOO_LARGE: { console: 413, relay: 413, relayType: "invalid_request_error" },
  RATE_LIMITED: { console: 429, relay: 429, relayType: "rate_limit_error" },
  INTERNAL: { console: 500, relay: 500, relayType: "server_error" },
};

const pick = <K extends "console" | "relay" | "relayType">(k: K) =>
  Object.fromEntries(Object.entries(ERROR_MAP).map(([code, m]) => [code, m[k]])) as Record<ErrorCode, (typeof ERROR_MAP)[ErrorCode][K]>;

export const consoleStatus: Record<ErrorCode, number> = pick("console");
export const relayStatus: Record<ErrorCode, number> = pick("relay");
export const relayErrorType: Record<ErrorCode, string> = pick("relayType");

// An unexpected error as it may be written to the server log. Prisma's validation errors
// print the failed call with its arguments (a password hash, a sealed key); only their first
// line is kept, and anything shaped like a secret is masked in what remains.
const SECRET_SHAPES: [RegExp, string][] = [
  [/scrypt\$[^\s"'`,)]+/g, "scrypt$[redacted]"],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, "sk-[redacted]"],
  [/\bv1\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, "[sealed]"],
  [/\b[a-f0-9]{64}\b/g, "[hash]"],
  [/("?(?:password|key|secret|token)"?\s*[:=]\s*)("[^"]*"|'[^']*')/gi, '$1"[redacted]"'],
];

export function describeError(err: unknown): string {
  let text: string;
  if (err instanceof Error) {
    text = err.name === "PrismaClientValidationError" ? `${err.name}: ${err.message.split("\n").find((l) => l.trim()) ?? ""}` : (err.stack ?? err.message);
  } else {
    text = String(err);
  }
  for (const [shape, mask] of SECRET_SHAPES) text = text.replace(shape, mask);
  return text;
}

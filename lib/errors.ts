// The one error family. Verbs throw AppError with a code and a message key; the HTTP edges
// map it once: the console's {success:false, message} envelope (lib/http/envelope.ts) and
// the relay's OpenAI, Anthropic and Gemini error shapes. Anything that is not an AppError
// becomes a generic internal error whose details never reach the client.
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";

export type ErrorCode =
  | "INVALID_INPUT" // the request is malformed or breaks a validation rule
  | "RULE" // a business rule refuses the action (same-or-higher level, root protection...)
  | "NOT_FOUND"
  | "UNAUTHENTICATED" // no valid session or credential
  | "FORBIDDEN" // authenticated but lacking the role
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

// HTTP status per code for the console API. Business refusals answer 200 with
// success:false, as new-api does: the console shows their message as is, while 401, 403,
// 405, 429 and 500 trigger the client's own catalogue (spec 1 section 8).
export const consoleStatus: Record<ErrorCode, number> = {
  INVALID_INPUT: 200,
  RULE: 200,
  NOT_FOUND: 200,
  QUOTA_EXCEEDED: 200,
  NO_CHANNEL: 200,
  UPSTREAM: 200,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  DEMO_REFUSED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

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

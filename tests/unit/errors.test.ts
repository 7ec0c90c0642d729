import { describe, expect, it } from "vitest";
import { consoleStatus, describeError, relayErrorType, relayStatus } from "@/lib/errors";

describe("describeError", () => {
  it("keeps only the first line of a Prisma validation error (the rest prints the call's arguments)", () => {
    const err = new Error('\nInvalid `prisma.user.create()` invocation:\n{ data: { password: "scrypt$16384$8$1$c2FsdA==$aGFzaA==" } }');
    err.name = "PrismaClientValidationError";
    const text = describeError(err);
    expect(text).toBe("PrismaClientValidationError: Invalid `prisma.user.create()` invocation:");
  });

  it("masks password hashes, API keys, sealed secrets, lookup hashes and quoted credentials", () => {
    const text = describeError(
      new Error(
        "failed: scrypt$16384$8$1$salt$hash sk-abcdefghijklmnopqrstuvwxyz012345 v1.nonceNONCE12.cipherTEXT123 " +
          "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef key: 'AIzaSecretValue'",
      ),
    );
    expect(text).not.toMatch(/salt\$hash|abcdefghijklmnop|cipherTEXT|0123456789abcdef0123|AIzaSecretValue/);
    expect(text).toContain("scrypt$[redacted]");
    expect(text).toContain("sk-[redacted]");
    expect(text).toContain("[sealed]");
    expect(text).toContain("[hash]");
  });
});

describe("the one error map (lib/errors.ts)", () => {
  it("gives every code its console status, relay status and relay error type", () => {
    expect(consoleStatus).toEqual({
      INVALID_INPUT: 200,
      RULE: 200,
      NOT_FOUND: 200,
      QUOTA_EXCEEDED: 200,
      NO_CHANNEL: 200,
      UPSTREAM: 200,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      BANNED: 200,
      DEMO_REFUSED: 405,
      PAYLOAD_TOO_LARGE: 413,
      RATE_LIMITED: 429,
      INTERNAL: 500,
    });
    expect(relayStatus).toEqual({
      INVALID_INPUT: 400,
      RULE: 400,
      NOT_FOUND: 404,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      BANNED: 403,
      QUOTA_EXCEEDED: 403,
      RATE_LIMITED: 429,
      PAYLOAD_TOO_LARGE: 413,
      NO_CHANNEL: 503,
      DEMO_REFUSED: 405,
      UPSTREAM: 500,
      INTERNAL: 500,
    });
    expect(relayErrorType).toEqual({
      INVALID_INPUT: "invalid_request_error",
      RULE: "invalid_request_error",
      NOT_FOUND: "invalid_request_error",
      UNAUTHENTICATED: "authentication_error",
      FORBIDDEN: "permission_error",
      BANNED: "permission_error",
      QUOTA_EXCEEDED: "insufficient_quota",
      RATE_LIMITED: "rate_limit_error",
      PAYLOAD_TOO_LARGE: "invalid_request_error",
      NO_CHANNEL: "no_available_channel",
      DEMO_REFUSED: "invalid_request_error",
      UPSTREAM: "invalid_request_error",
      INTERNAL: "server_error",
    });
  });
});

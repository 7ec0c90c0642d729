import { describe, expect, it } from "vitest";
import { describeError } from "@/lib/errors";

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
        'failed: scrypt$16384$8$1$salt$hash sk-abcdefghijklmnopqrstuvwxyz012345 v1.nonceNONCE12.cipherTEXT123 ' +
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

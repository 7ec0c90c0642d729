// Input shapes of the two-factor and passkey calls (docs/two-factor.md).
import "server-only";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";

export const codeBody = z.object({
  code: z.string({ error: "msg:twofa_code_format" }).trim().min(1, "msg:twofa_code_format").max(32, "msg:twofa_code_format"),
});

// A WebAuthn response as @simplewebauthn/browser produces it; the library checks its contents.
const credentialJson = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .loose();

export const registrationBody = z.object({
  name: z.string().trim().max(64, "msg:invalid_parameter").default(""),
  response: credentialJson.transform((r) => r as unknown as RegistrationResponseJSON),
});

export const assertionBody = z.object({
  response: credentialJson.transform((r) => r as unknown as AuthenticationResponseJSON),
});

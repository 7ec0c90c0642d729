// Keyed hash used to find a credential (API token key, system access token) without storing
// it in the clear: HMAC-SHA256 under a derived key. Equality of two hashes of 64 hex
// characters is checked by the database index; no secret is compared byte by byte in JS.
import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { derivedKey } from "@/lib/auth/keys";

export function lookupHash(secret: string): string {
  return createHmac("sha256", derivedKey("lookup-hash")).update(secret).digest("hex");
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// Uniform random string over [A-Za-z0-9] (rejection sampling avoids modulo bias).
export function randomAlnum(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

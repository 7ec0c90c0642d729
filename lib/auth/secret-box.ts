// Encryption at rest for secrets the program must read back (API token keys so that their
// owner can copy them again; upstream channel keys). AES-256-GCM with a random nonce:
// v1.<nonce b64url>.<ciphertext+tag b64url>.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKey } from "@/lib/auth/keys";

export function seal(plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey("secret-box"), nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${nonce.toString("base64url")}.${body.toString("base64url")}`;
}

// What seal() writes: v1.<12-byte nonce>.<ciphertext and 16-byte tag>, base64url.
const SEALED_SHAPE = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}$/;

/** Whether a stored value has the shape seal() writes (it may still not open, sealed with another key). */
export function isSealed(value: string): boolean {
  return SEALED_SHAPE.test(value);
}

export function open(sealed: string): string {
  const [version, nonce, body] = sealed.split(".");
  if (version !== "v1" || !nonce || !body) throw new Error("secret-box: unknown format");
  const data = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey("secret-box"), Buffer.from(nonce, "base64url"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

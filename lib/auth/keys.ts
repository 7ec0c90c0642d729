// Secrets derived from the configured keys, one per purpose, so that no two uses share a key.
import "server-only";
import { hkdfSync } from "node:crypto";
import { env } from "@/lib/env";

type Purpose = "session" | "secret-box" | "lookup-hash" | "twofa-fresh";
const cache = new Map<Purpose, Buffer>();

export function derivedKey(purpose: Purpose): Buffer {
  let key = cache.get(purpose);
  if (!key) {
    const root = purpose === "session" || purpose === "twofa-fresh" ? env().SESSION_SECRET : env().ENCRYPTION_KEY;
    key = Buffer.from(hkdfSync("sha256", root, "ai-gateway", purpose, 32));
    cache.set(purpose, key);
  }
  return key;
}

// The Telegram login widget's answer (docs/oauth.md, "Telegram"): every field it returns
// (whatever Telegram adds later too), sorted by name as key=value lines, without hash and
// without our own parameters (aff, lang), signed by HMAC-SHA256 keyed with the
// SHA-256 of the bot token. The hash is compared in constant time and an auth_date older
// than a day (or in the future) is refused.
import "server-only";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";

export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600;

const field = z.string().max(512).optional();
// Unknown fields are kept (as text), because Telegram signs them too.
export const telegramQuery = z
  .object({
    id: z.string().regex(/^\d{1,20}$/),
    first_name: field,
    last_name: field,
    username: field,
    photo_url: field,
    auth_date: z.string().regex(/^\d{1,12}$/),
    hash: z.string().regex(/^[0-9a-f]{64}$/i),
    lang: z.string().max(16).optional(),
    aff: z.string().max(32).optional(),
  })
  .catchall(z.string().max(512));
export type TelegramQuery = z.infer<typeof telegramQuery>;

// Ours, added to the widget's answer by the console: not signed by Telegram.
const UNSIGNED = new Set(["hash", "aff", "lang"]);

export function telegramCheckString(q: Record<string, string | undefined>): string {
  return Object.keys(q)
    .filter((k) => !UNSIGNED.has(k) && q[k] !== undefined)
    .sort()
    .map((k) => `${k}=${q[k]}`)
    .join("\n");
}

export function verifyTelegram(q: TelegramQuery, now = Math.floor(Date.now() / 1000)) {
  const token = getOption("TelegramBotToken");
  if (!token) throw new AppError("RULE", "telegram_auth_invalid");
  const secret = createHash("sha256").update(token).digest();
  const expected = createHmac("sha256", secret).update(telegramCheckString(q)).digest();
  const given = Buffer.from(q.hash, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError("RULE", "telegram_auth_invalid");
  const age = now - Number(q.auth_date);
  if (age > TELEGRAM_MAX_AGE_SECONDS || age < -60) throw new AppError("RULE", "telegram_auth_expired");
  const name = [q.first_name, q.last_name].filter(Boolean).join(" ");
  return { id: q.id, username: q.username ?? "", displayName: name || q.username || "", email: "" };
}

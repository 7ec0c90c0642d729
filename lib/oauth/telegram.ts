// The Telegram login widget's answer (docs/oauth.md, "Telegram"): every field it returns
// (whatever Telegram adds later too), sorted by name as key=value lines, without hash and
// without our own parameters (aff, lang), signed by HMAC-SHA256 keyed with the
// SHA-256 of the bot token. The hash is compared in constant time and an auth_date older
// than a day (or in the future) is refused. A payload that passed is then spent
// (spendTelegramPayload): the widget's answer is a bearer credential in a URL (history, logs,
// a shared link), so it signs in or binds once, not for its whole day.
import "server-only";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { nowSeconds } from "@/lib/time";

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

export function verifyTelegram(q: TelegramQuery, now = nowSeconds()) {
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

/**
 * Uses a verified payload once. Its signature identifies it (our unsigned aff and lang do not
 * make a new one); the row's primary key makes the insert the single use, across nodes and
 * concurrent requests. Kept until auth_date plus a day: verifyTelegram refuses it by then.
 */
export async function spendTelegramPayload(q: TelegramQuery, now = nowSeconds()): Promise<void> {
  // Lowercased: the hex signature is accepted in either case, and must not make two payloads.
  const payloadHash = createHash("sha256").update(q.hash.toLowerCase()).digest("hex");
  // Spent payloads past their day are swept as new ones come.
  await db().telegramLogin.deleteMany({ where: { expires_at: { lt: BigInt(now) } } });
  try {
    await db().telegramLogin.create({ data: { payload_hash: payloadHash, expires_at: BigInt(Number(q.auth_date) + TELEGRAM_MAX_AGE_SECONDS) } });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "telegram_auth_used");
    throw err;
  }
}

// The human check (Turnstile, docs/oauth.md "The human check"): with TurnstileCheckEnabled
// on, the calls that route() marks `humanCheck` carry the widget's token in ?turnstile=,
// and the server asks the verifier (TURNSTILE_VERIFY_URL, Cloudflare's siteverify by
// default) with the secret key and the client's address before doing anything else. No
// token, a refusal, or a verifier that cannot be reached: "the human check failed". Off: no
// check at all.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { outboundFetch } from "@/lib/net/outbound";
import { readCappedText } from "@/lib/net/read-capped";
import { getBool, getOption } from "@/lib/options/store";

export async function requireHumanCheck(ctx: Ctx, token: string | null): Promise<void> {
  if (!getBool("TurnstileCheckEnabled")) return;
  const failed = new AppError("RULE", "turnstile_failed");
  if (!token || token.length > 4096) throw failed;
  const body = new URLSearchParams({ secret: getOption("TurnstileSecretKey"), response: token });
  if (ctx.ip) body.set("remoteip", ctx.ip);
  let answer: unknown;
  try {
    const res = await outboundFetch(env().TURNSTILE_VERIFY_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: body.toString(),
      maxRedirects: 0,
      signal: AbortSignal.timeout(10_000),
    });
    answer = JSON.parse(await readCappedText(res, 64 * 1024));
    if (!res.ok) throw failed;
  } catch {
    throw failed;
  }
  if (!answer || typeof answer !== "object" || (answer as { success?: unknown }).success !== true) throw failed;
}

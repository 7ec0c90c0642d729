// GET /api/oauth/telegram/login: sign-in (or sign-up) with the Telegram widget's signed answer.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { refuseCrossSite } from "@/lib/oauth/same-site";
import { signInWith, type SignInResult } from "@/lib/oauth/sign-in";
import { spendTelegramPayload, verifyTelegram, type TelegramQuery } from "@/lib/oauth/telegram";

export async function telegramLogin({ ctx, input }: { ctx: Ctx; input: TelegramQuery }): Promise<SignInResult> {
  if (!getBool("TelegramOAuthEnabled")) throw new AppError("RULE", "oauth_provider_disabled");
  refuseCrossSite(ctx.headers);
  const identity = verifyTelegram(input);
  await spendTelegramPayload(input);
  return signInWith(ctx, "telegram", identity, { bindUserId: 0, aff: input.aff ?? "" });
}

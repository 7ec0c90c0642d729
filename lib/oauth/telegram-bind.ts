// GET /api/oauth/telegram/bind: binds the caller's account to the Telegram user of the widget's signed answer.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { bindIdentity } from "@/lib/oauth/sign-in";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { spendTelegramPayload, verifyTelegram, type TelegramQuery } from "@/lib/oauth/telegram";

export async function telegramBind({ ctx, input }: { ctx: UserCtx; input: TelegramQuery }): Promise<void> {
  if (!getBool("TelegramOAuthEnabled")) throw new AppError("RULE", "oauth_provider_disabled");
  // A new way into the account: a fresh second factor when the user has one.
  await requireFreshFactor(ctx);
  const { id } = verifyTelegram(input);
  await spendTelegramPayload(input);
  await bindIdentity(ctx.user.id, "telegram", id);
}

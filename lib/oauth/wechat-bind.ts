// GET /api/oauth/wechat/bind?code=: binds the caller's account to the WeChat user.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { bindIdentity } from "@/lib/oauth/sign-in";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { wechatOpenId } from "@/lib/oauth/wechat";

export async function wechatBind({ ctx, input }: { ctx: UserCtx; input: { code: string } }): Promise<void> {
  if (!getBool("WeChatAuthEnabled")) throw new AppError("RULE", "oauth_provider_disabled");
  // A new way into the account: a fresh second factor when the user has one.
  await requireFreshFactor(ctx);
  await bindIdentity(ctx.user.id, "wechat", await wechatOpenId(input.code));
}

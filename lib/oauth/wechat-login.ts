// GET /api/oauth/wechat?code=: WeChat sign-in (or sign-up) with the verification code.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { refuseCrossSite } from "@/lib/oauth/same-site";
import { signInWith, type SignInResult } from "@/lib/oauth/sign-in";
import { wechatOpenId } from "@/lib/oauth/wechat";

export async function wechatLogin({ ctx, input }: { ctx: Ctx; input: { code: string; aff: string } }): Promise<SignInResult> {
  if (!getBool("WeChatAuthEnabled")) throw new AppError("RULE", "oauth_provider_disabled");
  refuseCrossSite(ctx.headers);
  const openId = await wechatOpenId(input.code);
  return signInWith(ctx, "wechat", { id: openId, username: "", displayName: "", email: "" }, { bindUserId: 0, aff: input.aff });
}

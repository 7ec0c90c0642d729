// GET /api/oauth/wechat/bind?code=: binds the caller to the WeChat user of the verification code
import { z } from "zod";
import { Reply, route } from "@/lib/http/route";
import { wechatBind } from "@/lib/oauth/wechat-bind";

const query = z.object({ code: z.string().trim().min(1).max(64) });

export const GET = route({ access: "user", query, rateLimit: "critical" }, async ({ ctx, query }) => {
  await wechatBind({ ctx, input: { code: query.code } });
  return new Reply({ message: ctx.t("oauth_bound") });
});

// GET /api/oauth/wechat?code=&aff=: WeChat sign-in with the verification code the official account answered
import { z } from "zod";
import { route } from "@/lib/http/route";
import { signInReply } from "@/lib/oauth/reply";
import { wechatLogin } from "@/lib/oauth/wechat-login";

const query = z.object({ code: z.string().trim().min(1).max(64), aff: z.string().max(32).optional() });

export const GET = route({ access: "public", query, rateLimit: "critical" }, async ({ ctx, query }) =>
  signInReply(ctx, await wechatLogin({ ctx, input: { code: query.code, aff: query.aff ?? "" } })),
);

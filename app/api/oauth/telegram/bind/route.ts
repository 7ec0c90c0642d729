// GET /api/oauth/telegram/bind?id&...&hash: binds the caller to the Telegram user of the widget's signed answer
import { Reply, route } from "@/lib/http/route";
import { telegramQuery } from "@/lib/oauth/telegram";
import { telegramBind } from "@/lib/oauth/telegram-bind";

export const GET = route({ access: "user", query: telegramQuery, rateLimit: "critical" }, async ({ ctx, query }) => {
  await telegramBind({ ctx, input: query });
  return new Reply({ message: ctx.t("oauth_bound") });
});

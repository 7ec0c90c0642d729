// GET /api/oauth/telegram/login?id&first_name&last_name&username&photo_url&auth_date&hash: sign-in with the Telegram widget's signed answer
import { route } from "@/lib/http/route";
import { signInReply } from "@/lib/oauth/reply";
import { telegramQuery } from "@/lib/oauth/telegram";
import { telegramLogin } from "@/lib/oauth/telegram-login";

export const GET = route({ access: "public", query: telegramQuery, rateLimit: "critical" }, async ({ ctx, query }) =>
  signInReply(ctx, await telegramLogin({ ctx, input: query })),
);

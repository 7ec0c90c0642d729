// DELETE /api/user/{id}/binding/{provider}: the root clears one third-party binding of a user
import { z } from "zod";
import { idParams } from "@/lib/http/params";
import { Reply, route } from "@/lib/http/route";
import { clearBinding } from "@/lib/oauth/clear-binding";

const params = idParams.extend({ provider: z.enum(["github", "oidc", "linuxdo", "idcflare", "wechat", "telegram"]) });

export const DELETE = route({ access: "root", params }, async ({ ctx, params }) => {
  await clearBinding({ ctx, input: { id: params.id, provider: params.provider } });
  return new Reply({ message: ctx.t("oauth_binding_cleared") });
});

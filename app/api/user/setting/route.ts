// PUT /api/user/setting: the caller's notification and display settings
import { Reply, route } from "@/lib/http/route";
import { settingBody } from "@/lib/users/schemas";
import { updateSetting } from "@/lib/users/update-setting";

export const PUT = route({ access: "user", body: settingBody }, async ({ ctx, body }) => {
  const user = await updateSetting({ ctx, input: body });
  return new Reply({ data: user, message: ctx.t("setting_updated") });
});

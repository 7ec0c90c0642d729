// POST /api/user/{id}/test_notification: the root sends the user a test notification through their channel
import { Reply, route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { testNotification } from "@/lib/notify/test-notification";

export const POST = route({ access: "root", params: idParams, rateLimit: "critical" }, async ({ ctx, params }) => {
  const message = await testNotification({ ctx, input: params });
  return new Reply({ message });
});

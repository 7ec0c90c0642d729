// After a user's status, role, group, setting or existence changes: the relay's token cache
// holds a copy of the owner with each token, and the quota warnings a copy of the user's
// threshold (lib/notify/quota-watch.ts), so drop this user's entries here and on other nodes.
import "server-only";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { forgetUser } from "@/lib/notify/quota-watch";
import { invalidateUserTokens } from "@/lib/relay/token-cache";

export async function userChanged(userId: number): Promise<void> {
  invalidateUserTokens(userId);
  forgetUser(userId);
  await publishInvalidation("users", String(userId));
}

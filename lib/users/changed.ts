// After a user's status, role, group or existence changes: the relay's token cache holds a
// copy of the owner with each token, so drop this user's entries here and on other nodes.
import "server-only";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { invalidateUserTokens } from "@/lib/relay/token-cache";

export async function userChanged(userId: number): Promise<void> {
  invalidateUserTokens(userId);
  await publishInvalidation("users", String(userId));
}

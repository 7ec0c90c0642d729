// After a user's subscriptions, preference or group changed: the relay's plan pots
// (lib/billing/plan-pots.ts) and token cache (the group) forget the user here, and every
// other node hears it on the "users" invalidation topic (lib/users/changed.ts).
import "server-only";
import { forgetPlanPots } from "@/lib/billing/plan-pots";
import { userChanged } from "@/lib/users/changed";

export async function subscriptionsChanged(userId: number): Promise<void> {
  forgetPlanPots(userId);
  await userChanged(userId);
}

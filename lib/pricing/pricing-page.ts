// The public pricing table (GET /api/pricing): every model an enabled channel serves, with
// its price or ratios and the groups that can use it; the group ratios; the groups the
// viewer may use (a logged-out visitor sees the default group only).
import "server-only";
import { getJson } from "@/lib/options/store";
import { usableGroups } from "@/lib/billing/groups";
import { modelGroups } from "@/lib/channels/channel-cache";
import type { Ctx } from "@/lib/ctx";
import { own } from "@/lib/own-keys";

export async function pricingTable({ input: viewerGroup }: { ctx: Ctx; input: string | null }) {
  const prices = getJson<Record<string, number>>("ModelPrice", {});
  const ratios = getJson<Record<string, number>>("ModelRatio", {});
  const completion = getJson<Record<string, number>>("CompletionRatio", {});
  const groups = await modelGroups();
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, enable_groups]) => {
      // own entries only: a model named "constructor" or "toString" has no inherited price
      const price = own(prices, model);
      const ratio = own(ratios, model);
      const perCall = typeof price === "number";
      return {
        model_name: model,
        quota_type: perCall ? 1 : 0,
        model_ratio: perCall ? 0 : (ratio ?? 0),
        completion_ratio: own(completion, model) ?? 1,
        model_price: perCall ? price : 0,
        enable_groups: enable_groups.sort(),
        price_set: perCall || typeof ratio === "number",
      };
    });
  const allRatios = getJson<Record<string, number>>("GroupRatio", {});
  const group = viewerGroup ?? "default";
  const usable = viewerGroup ? usableGroups(viewerGroup) : { default: usableGroups("default").default ?? "default" };
  return { data: rows, group_ratio: allRatios, usable_group: usable, group };
}

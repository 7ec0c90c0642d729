// The root puts the model prices back to the server defaults (the preset price table,
// docs/pricing.md): the saved rows of the price options (PRICE_MAP_KEYS: ModelRatio, CompletionRatio, the cache ratios, ModelPrice)
// are deleted, so these options read their defaults again, here at once and on the other
// nodes after the invalidation message (they reload every option from defaults and rows).
// Deleting rather than saving the defaults keeps a later update of the table in effect.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { PRESET_PRICE_KEYS } from "@/lib/options/presets/ratios";
import { db } from "@/lib/db/client";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { applyOption, getOption } from "@/lib/options/store";
import { optionChangeDetail } from "@/lib/options/update-option";
import { recordAudit } from "@/lib/audit/record";

export async function resetModelRatio({ ctx }: { ctx: UserCtx }): Promise<void> {
  const before = new Map(PRESET_PRICE_KEYS.map((key) => [key, getOption(key)]));
  await db().option.deleteMany({ where: { key: { in: [...PRESET_PRICE_KEYS] } } });
  for (const key of PRESET_PRICE_KEYS) applyOption(key, OPTION_DEFAULTS[key]);
  await publishInvalidation("options", "ModelRatio");
  for (const key of PRESET_PRICE_KEYS) {
    const old = before.get(key) ?? "";
    if (old !== OPTION_DEFAULTS[key]) {
      await recordAudit(ctx, { action: "option_change", target: { type: "option", id: key }, detail: optionChangeDetail(key, old, OPTION_DEFAULTS[key]) });
    }
  }
}

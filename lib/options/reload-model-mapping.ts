// Reload: the mapping is read again from the database (the option row model_mapping, or the
// default {} when there is none) and put into this node's cache, and a Redis message makes
// every other node reload its options too (lib/options/store.ts). Saving already does all
// of this; reload is for a row changed outside the console (SQL, a restore) or a node that
// missed a message while Redis was away. A stored mapping that breaks the rules is not
// applied: the refusal names the rule, and the caches keep what they hold.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { checkMapping, type ModelMapping } from "@/lib/model-mapping/schema";
import { applyOption } from "@/lib/options/store";

export async function reloadModelMapping(_args: { ctx: UserCtx }): Promise<{ mapping: ModelMapping }> {
  const row = await db().option.findUnique({ where: { key: "model_mapping" } });
  const text = row?.value ?? OPTION_DEFAULTS.model_mapping;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_INPUT", "option_invalid_json", { key: "model_mapping" });
  }
  const check = checkMapping(parsed);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key as MessageKey, check.params);
  applyOption("model_mapping", text);
  await publishInvalidation("options", "model_mapping");
  return { mapping: check.mapping };
}

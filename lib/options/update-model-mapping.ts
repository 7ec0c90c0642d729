// An admin replaces the whole model mapping (the dialog sends every virtual model after an
// add, an edit, a rename or a delete). Checked by lib/model-mapping/schema.ts's rules,
// stored in the option model_mapping, then applied to this node's cache and, through Redis,
// to the others' (lib/options/store.ts), where the relay picks it up on its next call.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { checkMapping, type ModelMapping } from "@/lib/model-mapping/schema";
import { getOption, setOption } from "@/lib/options/store";
import { optionChangeDetail } from "@/lib/options/update-option";
import { recordAudit } from "@/lib/audit/record";

export async function updateModelMapping({ ctx, input }: { ctx: UserCtx; input: { mapping: ModelMapping } }): Promise<void> {
  const check = checkMapping(input.mapping);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key as MessageKey, check.params);
  const before = getOption("model_mapping");
  const after = JSON.stringify(check.mapping);
  await setOption("model_mapping", after);
  if (before !== after)
    await recordAudit(ctx, {
      action: "option_change",
      target: { type: "option", id: "model_mapping" },
      detail: optionChangeDetail("model_mapping", before, after),
    });
}

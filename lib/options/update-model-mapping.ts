// An admin replaces the whole model mapping (the dialog sends every virtual model after an
// add, an edit, a rename or a delete). Checked by lib/model-mapping/schema.ts's rules,
// stored in the option model_mapping, then applied to this node's cache and, through Redis,
// to the others' (lib/options/store.ts), where the relay picks it up on its next call.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { checkMapping, type ModelMapping } from "@/lib/model-mapping/schema";
import { setOption } from "@/lib/options/store";

export async function updateModelMapping({ input }: { ctx: UserCtx; input: { mapping: ModelMapping } }): Promise<void> {
  const check = checkMapping(input.mapping);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key as MessageKey, check.params);
  await setOption("model_mapping", JSON.stringify(check.mapping));
}

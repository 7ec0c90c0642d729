// An admin saves one option: the role may write it (lib/options/access.ts), the value is
// validated (lib/options/validate.ts), then written and propagated to the cache (and other nodes).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { canWriteOption } from "@/lib/options/access";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { getOption, setOption } from "@/lib/options/store";
import { validateOption } from "@/lib/options/validate";

export async function updateOption({ ctx, input }: { ctx: UserCtx; input: { key: string; value: string } }): Promise<void> {
  if (input.key in OPTION_DEFAULTS && !canWriteOption(input.key, ctx.user.role)) throw new AppError("FORBIDDEN", "option_root_only");
  const check = validateOption(input.key, input.value, getOption);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key, check.params);
  await setOption(input.key, check.value);
}

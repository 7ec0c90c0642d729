// An admin saves one option: the key is registered (lib/options/registry.ts; an inherited
// name such as "constructor" is not), the role may write it (lib/options/access.ts), the
// value is validated (lib/options/validate.ts), then written and propagated to the cache
// (and other nodes).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { canWriteOption } from "@/lib/options/access";
import { isOptionKey } from "@/lib/options/registry";
import { getOption, setOption } from "@/lib/options/store";
import { validateOption } from "@/lib/options/validate";

export async function updateOption({ ctx, input }: { ctx: UserCtx; input: { key: string; value: string } }): Promise<void> {
  const key = input.key;
  if (!isOptionKey(key)) throw new AppError("INVALID_INPUT", "invalid_parameter");
  if (!canWriteOption(key, ctx.user.role)) throw new AppError("FORBIDDEN", "option_root_only");
  const check = validateOption(key, input.value, getOption);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key, check.params);
  await setOption(key, check.value);
}

// The root saves one option: validated (lib/options/validate.ts), then written and
// propagated to the cache (and other nodes).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getOption, setOption } from "@/lib/options/store";
import { validateOption } from "@/lib/options/validate";

export async function updateOption({ input }: { ctx: UserCtx; input: { key: string; value: string } }): Promise<void> {
  const check = validateOption(input.key, input.value, getOption);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key, check.params);
  await setOption(input.key, check.value);
}

// The model names the caller's group can use: distinct models of enabled abilities.
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/http/route";

export async function listUserModels({ ctx }: { ctx: UserCtx }): Promise<string[]> {
  const rows = await db().ability.findMany({
    where: { group: ctx.user.group, enabled: true },
    select: { model: true },
    distinct: ["model"],
    orderBy: { model: "asc" },
  });
  return rows.map((r) => r.model);
}

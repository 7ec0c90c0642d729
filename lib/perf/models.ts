// GET /api/perf/models (docs/performance.md, "Calls"): the performance of each model, per hour,
// day or the whole range. A user reads the groups it may use (its own and UserUsableGroups),
// one of them with `group`; an admin any group, or every group together without it.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { isAdmin } from "@/lib/auth/roles";
import { usableGroups } from "@/lib/billing/groups";
import { perfRows } from "@/lib/rollups/perf-read";
import { checkPerfRange, type PerfQuery } from "@/lib/perf/query";
import { splitList } from "@/lib/channels/split-list";

export async function perfModels({ ctx, input: q }: { ctx: UserCtx; input: PerfQuery }) {
  checkPerfRange(q);
  let groups: string[] | undefined;
  if (isAdmin(ctx.user.role)) groups = q.group ? [q.group] : undefined;
  else {
    const mine = Object.keys(usableGroups(ctx.user.group));
    if (q.group && !mine.includes(q.group)) throw new AppError("FORBIDDEN", "permission_denied");
    groups = q.group ? [q.group] : mine;
  }
  const models = q.model_name ? splitList(q.model_name) : undefined;
  return perfRows({ dim: "model", groups, models: models?.length ? models : undefined }, q.start_timestamp, q.end_timestamp, q.granularity);
}

// Admin verbs of the plans themselves (docs/plans.md, "API"): list, create, update, delete.
// A delete hides the plan (deleted_at) so that its subscriptions and pending orders keep it.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { isAdmin } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { presentPlan } from "@/lib/plans/present";
import type { CreatePlanInput, UpdatePlanInput } from "@/lib/plans/schemas";
import { nowSeconds } from "@/lib/time";

export function requireAdmin(ctx: UserCtx): void {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
}

export async function listAllPlans({ ctx }: { ctx: UserCtx }) {
  requireAdmin(ctx);
  const rows = await db().plan.findMany({ where: { deleted_at: null }, orderBy: { id: "asc" } });
  return rows.map((p) => presentPlan(p, true));
}

export async function createPlan({ ctx, input }: { ctx: UserCtx; input: CreatePlanInput }) {
  requireAdmin(ctx);
  const now = BigInt(nowSeconds());
  const plan = await db().plan.create({ data: { ...input, models: input.models.join(","), created_at: now, updated_at: now } });
  return presentPlan(plan, true);
}

export async function updatePlan({ ctx, input }: { ctx: UserCtx; input: UpdatePlanInput }) {
  requireAdmin(ctx);
  const { id, models, ...rest } = input;
  const data = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const changed = await db().plan.updateMany({
    where: { id, deleted_at: null },
    data: { ...data, ...(models ? { models: models.join(",") } : {}), updated_at: BigInt(nowSeconds()) },
  });
  if (changed.count !== 1) throw new AppError("NOT_FOUND", "plan_not_found");
  return presentPlan(await db().plan.findUniqueOrThrow({ where: { id } }), true);
}

export async function deletePlan({ ctx, input }: { ctx: UserCtx; input: { id: number } }) {
  requireAdmin(ctx);
  const now = BigInt(nowSeconds());
  const changed = await db().plan.updateMany({ where: { id: input.id, deleted_at: null }, data: { deleted_at: now, enabled: false, updated_at: now } });
  if (changed.count !== 1) throw new AppError("NOT_FOUND", "plan_not_found");
}

// GET /api/plans: the plans for sale, for a signed-in user.
export async function listPlansForSale({ ctx }: { ctx: UserCtx }) {
  void ctx;
  const rows = await db().plan.findMany({ where: { deleted_at: null, enabled: true }, orderBy: { id: "asc" } });
  return rows.map((p) => presentPlan(p, false));
}

// The console's reads of the drawing and task logs (docs/tasks.md, "Console API"):
// GET /api/mj/ and /api/task/ (admins: every user's tasks, with the channel), GET /api/mj/self
// and /api/task/self (the caller's own, without the channel). Image-task times are
// milliseconds (as Midjourney-proxy reports them), creative-task times seconds.
import "server-only";
import { shownImageUrl } from "@/lib/tasks/mj";
import { z } from "zod";
import type { CreativeTask, ImageTask, Prisma } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { isAdmin } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { page, pageSize } from "@/lib/http/params";
import type { UserCtx } from "@/lib/ctx";
import { MAX_INT32, queryInt } from "@/lib/http/params";

const MAX_MS = 253_402_300_799_000;
const optText = z.string().trim().max(200).optional();

export const mjQuery = z.object({
  p: page,
  page_size: pageSize(10),
  channel_id: queryInt(MAX_INT32),
  mj_id: optText,
  start_timestamp: queryInt(MAX_MS),
  end_timestamp: queryInt(MAX_MS),
});
export type MjQuery = z.infer<typeof mjQuery>;

export const taskQuery = z.object({
  p: page,
  page_size: pageSize(10),
  channel_id: queryInt(MAX_INT32),
  task_id: optText,
  start_timestamp: queryInt(MAX_MS / 1000),
  end_timestamp: queryInt(MAX_MS / 1000),
});
export type TaskQuery = z.infer<typeof taskQuery>;

function ownerOf(ctx: UserCtx, all: boolean): number | null {
  if (!all) return ctx.user.id;
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  return null;
}

function range(start?: number, end?: number): Prisma.BigIntFilter | undefined {
  if (!start && !end) return undefined;
  const r: Prisma.BigIntFilter = {};
  if (start) r.gte = BigInt(start);
  if (end) r.lte = BigInt(end);
  return r;
}

function imageRow(t: ImageTask, admin: boolean) {
  return {
    id: t.id,
    user_id: t.user_id,
    code: t.code,
    action: t.action,
    mj_id: t.mj_id,
    prompt: t.prompt,
    prompt_en: t.prompt_en,
    description: t.description,
    state: t.state,
    submit_time: t.submit_time,
    start_time: t.start_time,
    finish_time: t.finish_time,
    image_url: shownImageUrl(t),
    status: t.status,
    progress: t.progress,
    fail_reason: t.fail_reason,
    channel_id: admin ? t.channel_id : 0,
    quota: t.quota,
    buttons: t.buttons,
    properties: t.properties,
  };
}

function creativeRow(t: CreativeTask, admin: boolean) {
  return {
    id: t.id,
    user_id: t.user_id,
    task_id: t.task_id,
    platform: t.platform,
    channel_id: admin ? t.channel_id : 0,
    quota: t.quota,
    action: t.action,
    status: t.status,
    fail_reason: t.fail_reason,
    submit_time: t.submit_time,
    start_time: t.start_time,
    finish_time: t.finish_time,
    progress: t.progress,
    properties: t.properties,
    data: t.data,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

// GET /api/mj/ (all) and /api/mj/self/: a page of image tasks, newest first, with the total.
export async function listImageTasks({ ctx, input: { query: q, all } }: { ctx: UserCtx; input: { query: MjQuery; all: boolean } }) {
  const userId = ownerOf(ctx, all);
  const w: Prisma.ImageTaskWhereInput = {};
  if (userId !== null) w.user_id = userId;
  else if (q.channel_id) w.channel_id = q.channel_id;
  if (q.mj_id) w.mj_id = q.mj_id;
  const submitted = range(q.start_timestamp, q.end_timestamp);
  if (submitted) w.submit_time = submitted;
  const [rows, total] = await Promise.all([
    db().imageTask.findMany({ where: w, orderBy: { id: "desc" }, skip: (q.p - 1) * q.page_size, take: q.page_size }),
    db().imageTask.count({ where: w }),
  ]);
  return { items: rows.map((r) => imageRow(r, userId === null)), page: q.p, page_size: q.page_size, total };
}

// GET /api/task/ (all) and /api/task/self: a page of creative tasks, newest first, as an array
// (the page asks for the next page when it reaches the last one loaded).
export async function listCreativeTasks({ ctx, input: { query: q, all } }: { ctx: UserCtx; input: { query: TaskQuery; all: boolean } }) {
  const userId = ownerOf(ctx, all);
  const w: Prisma.CreativeTaskWhereInput = {};
  if (userId !== null) w.user_id = userId;
  else if (q.channel_id) w.channel_id = q.channel_id;
  if (q.task_id) w.task_id = q.task_id;
  const submitted = range(q.start_timestamp, q.end_timestamp);
  if (submitted) w.submit_time = submitted;
  const rows = await db().creativeTask.findMany({ where: w, orderBy: { id: "desc" }, skip: (q.p - 1) * q.page_size, take: q.page_size });
  return rows.map((r) => creativeRow(r, userId === null));
}

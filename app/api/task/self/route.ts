// GET /api/task/self: the caller's own creative tasks (Suno, video), with filters
import { route } from "@/lib/http/route";
import { listCreativeTasks, taskQuery } from "@/lib/tasks/query";

export const GET = route({ access: "user", query: taskQuery }, async ({ ctx, query }) => listCreativeTasks({ ctx, input: { query, all: false } }));

// GET /api/task/: creative tasks (Suno, video) of every user, with filters (admin)
import { route } from "@/lib/http/route";
import { listCreativeTasks, taskQuery } from "@/lib/tasks/query";

export const GET = route({ access: "admin", gate: "GET /api/task", query: taskQuery }, async ({ ctx, query }) =>
  listCreativeTasks({ ctx, input: { query, all: true } }),
);

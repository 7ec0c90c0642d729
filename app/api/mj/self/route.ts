// GET /api/mj/self/: the caller's own image (Midjourney) tasks, with filters
import { route } from "@/lib/http/route";
import { listImageTasks, mjQuery } from "@/lib/tasks/query";

export const GET = route({ access: "user", query: mjQuery }, async ({ ctx, query }) => listImageTasks({ ctx, input: { query, all: false } }));

// GET /api/mj/: image (Midjourney) tasks of every user, with filters (admin)
import { route } from "@/lib/http/route";
import { listImageTasks, mjQuery } from "@/lib/tasks/query";

export const GET = route({ access: "admin", gate: "GET /api/mj", query: mjQuery }, async ({ ctx, query }) =>
  listImageTasks({ ctx, input: { query, all: true } }),
);

// GET /api/user/: admin user list, newest first (p is 0-based)
import { route } from "@/lib/http/route";
import { createUser } from "@/lib/users/create-user";
import { listUsers } from "@/lib/users/list-users";
import { createUserBody, pageQuery, updateUserBody } from "@/lib/users/schemas";
import { updateUser } from "@/lib/users/update-user";

export const GET = route({ access: "admin", gate: "GET /api/user", query: pageQuery }, async ({ ctx, query }) => listUsers({ ctx, input: query }));

// POST /api/user/: admin creates a user below their own level
export const POST = route({ access: "admin", gate: "POST /api/user", body: createUserBody }, async ({ ctx, body }) => createUser({ ctx, input: body }));

// PUT /api/user/: admin edits a user below their own level (quota through the ledger)
export const PUT = route({ access: "admin", gate: "PUT /api/user", body: updateUserBody }, async ({ ctx, body }) => updateUser({ ctx, input: body }));

// GET /api/user/search: admin user search by id, name or e-mail and group (p is 1-based)
import { route } from "@/lib/http/route";
import { searchUsers } from "@/lib/users/list-users";
import { searchQuery } from "@/lib/users/schemas";

export const GET = route({ access: "admin", gate: "GET /api/user/search", query: searchQuery }, async ({ ctx, query }) => searchUsers({ ctx, input: query }));

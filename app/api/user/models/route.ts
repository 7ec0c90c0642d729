// GET /api/user/models: model names available to the caller's group
import { route } from "@/lib/http/route";
import { listUserModels } from "@/lib/users/list-models";

export const GET = route({ access: "user" }, async ({ ctx }) => listUserModels({ ctx }));

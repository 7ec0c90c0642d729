// GET /api/user/token: issue a new system access token (shown once)
import { route } from "@/lib/http/route";
import { generateAccessToken } from "@/lib/users/generate-access-token";

export const GET = route({ access: "user" }, async ({ ctx }) => generateAccessToken({ ctx }));

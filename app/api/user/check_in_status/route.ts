// GET /api/user/check_in_status: whether the caller can check in today
import { checkInStatus } from "@/lib/checkin/check-in-status";
import { route } from "@/lib/http/route";

export const GET = route({ access: "user" }, async ({ ctx }) => checkInStatus({ ctx }));

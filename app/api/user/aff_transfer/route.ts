// POST /api/user/aff_transfer: move invitation earnings into the balance
import { route } from "@/lib/http/route";
import { transferAffQuota } from "@/lib/users/aff";
import { affTransferBody } from "@/lib/users/schemas";

export const POST = route({ access: "user", body: affTransferBody }, async ({ ctx, body }) => transferAffQuota({ ctx, input: body }));

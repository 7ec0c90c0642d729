// DELETE /api/user/passkey/{id}: remove one of the caller's passkeys
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { deletePasskey } from "@/lib/twofa/delete-passkey";

export const DELETE = route({ access: "user", params: idParams }, async ({ ctx, params }) => deletePasskey({ ctx, input: params }));

// POST /api/user/2fa/backup_codes {code}: ten new backup codes replace the old ones (shown once)
import { route } from "@/lib/http/route";
import { codeBody } from "@/lib/twofa/schemas";
import { regenerateBackupCodes } from "@/lib/twofa/regenerate-backup-codes";

export const POST = route({ access: "user", body: codeBody }, async ({ ctx, body }) => regenerateBackupCodes({ ctx, input: body }));

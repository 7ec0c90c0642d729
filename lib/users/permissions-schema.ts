// The body of PUT /api/user/{id}/permissions: permission names of the table
// (lib/auth/permissions.ts); an unknown name answers 400 "Unknown permission name".
import { z } from "zod";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";

export const permissionsBody = z.object({
  permissions: z.array(z.enum(PERMISSIONS as [Permission, ...Permission[]], { message: "msg:permission_unknown" })).max(PERMISSIONS.length * 2),
});

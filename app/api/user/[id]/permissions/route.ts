// GET /api/user/{id}/permissions: a user's effective permission set and whether it is the default admin set (root)
// PUT /api/user/{id}/permissions: replace an admin's permission set {permissions: [...]}; audited (root; admins only)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { getUserPermissions } from "@/lib/users/get-user-permissions";
import { permissionsBody } from "@/lib/users/permissions-schema";
import { setUserPermissions } from "@/lib/users/set-user-permissions";

export const GET = route({ access: "root", params: idParams }, async ({ ctx, params }) => getUserPermissions({ ctx, input: { id: params.id } }));

export const PUT = route({ access: "root", params: idParams, body: permissionsBody }, async ({ ctx, params, body }) =>
  setUserPermissions({ ctx, input: { id: params.id, permissions: body.permissions } }),
);

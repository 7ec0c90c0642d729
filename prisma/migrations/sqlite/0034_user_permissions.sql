-- an admin's permission set (docs/permissions.md): a JSON array of names, null = the default admin set
ALTER TABLE "users" ADD COLUMN "permissions" TEXT;

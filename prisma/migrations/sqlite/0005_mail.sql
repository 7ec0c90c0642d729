-- AlterTable
ALTER TABLE "users" ADD COLUMN "email_key" TEXT;

-- CreateTable
CREATE TABLE "email_codes" (
    "purpose" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "used" BOOLEAN NOT NULL DEFAULT false,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,

    PRIMARY KEY ("purpose", "email")
);

-- CreateIndex
CREATE INDEX "email_codes_expires_at_idx" ON "email_codes"("expires_at");

-- Backfill (docs/accounts-api.md, "E-mail addresses"): each distinct address, compared
-- lowercased, goes to its oldest live account; a later account with the same address keeps it
-- as written but without a key, so it cannot log in by e-mail until it binds another address.
UPDATE "users" SET "email_key" = lower(trim("email"))
WHERE trim("email") <> '' AND "deleted_at" IS NULL
  AND "id" = (SELECT min(u2."id") FROM "users" u2 WHERE u2."deleted_at" IS NULL AND lower(trim(u2."email")) = lower(trim("users"."email")));

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key_key" ON "users"("email_key");


-- AlterTable (ADD COLUMN rather than a table rebuild, so that columns other migrations add
-- to "users" are kept whatever the order they were written in)
ALTER TABLE "users" ADD COLUMN "quota_warned_at" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "users" ADD COLUMN "language" TEXT NOT NULL DEFAULT '';

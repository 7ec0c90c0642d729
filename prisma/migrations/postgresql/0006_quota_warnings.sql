-- AlterTable
ALTER TABLE "users" ADD COLUMN     "language" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "quota_warned_at" BIGINT NOT NULL DEFAULT 0;


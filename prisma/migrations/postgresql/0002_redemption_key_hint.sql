-- AlterTable
ALTER TABLE "redemptions" ADD COLUMN     "key_hint" TEXT NOT NULL DEFAULT '';


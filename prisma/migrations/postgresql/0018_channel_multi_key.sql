-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "channel_info" TEXT NOT NULL DEFAULT '';


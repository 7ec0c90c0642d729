-- AlterTable
ALTER TABLE "quota_holds" ADD COLUMN     "request_id" TEXT;


-- AlterTable
ALTER TABLE "top_ups" ADD COLUMN     "completed_by" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "currency" TEXT NOT NULL DEFAULT 'CNY',
ADD COLUMN     "paid_money" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "provider" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "provider_ref" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "rebate_quota" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "top_up_code" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "top_ups_status_create_time_idx" ON "top_ups"("status", "create_time");


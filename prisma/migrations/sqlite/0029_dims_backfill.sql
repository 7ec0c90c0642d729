-- AlterTable (columns added, not the table redefined: docs/dashboard.md)
ALTER TABLE "log_rollup_state" ADD COLUMN "dims_backfilled" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "log_rollup_state" ADD COLUMN "dims_backfill_to" INTEGER NOT NULL DEFAULT 0;

-- The logs summed before log_token_rollups and log_channel_rollups existed (id <= the
-- watermark) are added to them by the rollup job in the background, in bounded steps
-- (lib/rollups/job.ts, docs/dashboard.md "Keeping the rollups exact"), not by a migration
-- that the start-up would wait for. Migration 0025 filled them itself on installs that ran it
-- before this change: their tables already hold those logs (or there were none), and they get
-- no backfill. An install that runs 0025 now gets empty tables: the backfill covers every log
-- up to the watermark.
UPDATE "log_rollup_state" SET "dims_backfill_to" = "last_log_id", "dims_backfilled" = 0
WHERE NOT EXISTS (SELECT 1 FROM "log_token_rollups") AND NOT EXISTS (SELECT 1 FROM "log_channel_rollups");


-- The channel rollups covered (docs/dashboard.md, "Usage-log stats"): a channel or group over
-- 100 days is summed from the index, not from nearly every page of the table.
-- DropIndex
DROP INDEX "log_channel_rollups_channel_id_hour_idx";

-- DropIndex
DROP INDEX "log_channel_rollups_group_hour_idx";

-- CreateIndex
CREATE INDEX "log_channel_rollups_channel_id_hour_group_model_name_count_prompt_tokens_completion_tokens_quota_idx" ON "log_channel_rollups"("channel_id", "hour", "group", "model_name", "count", "prompt_tokens", "completion_tokens", "quota");

-- CreateIndex
CREATE INDEX "log_channel_rollups_group_hour_channel_id_model_name_count_prompt_tokens_completion_tokens_quota_idx" ON "log_channel_rollups"("group", "hour", "channel_id", "model_name", "count", "prompt_tokens", "completion_tokens", "quota");


-- CreateTable
CREATE TABLE "log_token_rollups" (
    "id" SERIAL NOT NULL,
    "hour" BIGINT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "token_name" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "log_token_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "log_channel_rollups" (
    "id" SERIAL NOT NULL,
    "hour" BIGINT NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "group" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "log_channel_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "log_token_rollups_user_id_token_name_hour_idx" ON "log_token_rollups"("user_id", "token_name", "hour");

-- CreateIndex
CREATE INDEX "log_token_rollups_user_id_group_hour_idx" ON "log_token_rollups"("user_id", "group", "hour");

-- CreateIndex
CREATE INDEX "log_token_rollups_username_token_name_hour_idx" ON "log_token_rollups"("username", "token_name", "hour");

-- CreateIndex
CREATE INDEX "log_token_rollups_username_group_hour_idx" ON "log_token_rollups"("username", "group", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "log_token_rollups_hour_user_id_username_token_name_group_mo_key" ON "log_token_rollups"("hour", "user_id", "username", "token_name", "group", "model_name");

-- CreateIndex
CREATE INDEX "log_channel_rollups_channel_id_hour_idx" ON "log_channel_rollups"("channel_id", "hour");

-- CreateIndex
CREATE INDEX "log_channel_rollups_group_hour_idx" ON "log_channel_rollups"("group", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "log_channel_rollups_hour_channel_id_group_model_name_key" ON "log_channel_rollups"("hour", "channel_id", "group", "model_name");

-- The logs the rollup job has already summed (id <= last_log_id) are added to the new tables
-- by the job itself, in the background and in bounded steps (migration 0029, lib/rollups/job.ts):
-- this file filled them here once, which made the first start after the upgrade wait for a
-- sum over every log (docs/dashboard.md, "Keeping the rollups exact").

-- CreateTable
CREATE TABLE "log_user_day_rollups" (
    "id" SERIAL NOT NULL,
    "day" BIGINT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "log_user_day_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "log_user_day_rollups_user_id_day_idx" ON "log_user_day_rollups"("user_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "log_user_day_rollups_day_user_id_username_key" ON "log_user_day_rollups"("day", "user_id", "username");

-- Filled from the per-user hourly rollups (the same logs, id <= last_log_id), so that the
-- tables agree from the start (docs/dashboard.md). The job's steps lock the state row first;
-- so does this, so no step adds to log_rollups between the copy and the commit.
SELECT 1 FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE;
INSERT INTO "log_user_day_rollups" ("day", "user_id", "username", "count", "prompt_tokens", "completion_tokens", "quota")
SELECT "hour" - ("hour" % 86400), "user_id", "username", SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_rollups" GROUP BY "hour" - ("hour" % 86400), "user_id", "username";

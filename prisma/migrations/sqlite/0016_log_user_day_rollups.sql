-- CreateTable
CREATE TABLE "log_user_day_rollups" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "day" BIGINT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "log_user_day_rollups_user_id_day_idx" ON "log_user_day_rollups"("user_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "log_user_day_rollups_day_user_id_username_key" ON "log_user_day_rollups"("day", "user_id", "username");

-- Filled from the per-user hourly rollups (the same logs, id <= last_log_id), so that the
-- tables agree from the start (docs/dashboard.md).
INSERT INTO "log_user_day_rollups" ("day", "user_id", "username", "count", "prompt_tokens", "completion_tokens", "quota")
SELECT "hour" - ("hour" % 86400), "user_id", "username", SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_rollups" GROUP BY "hour" - ("hour" % 86400), "user_id", "username";

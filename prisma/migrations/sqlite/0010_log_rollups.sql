-- CreateTable
CREATE TABLE "log_rollups" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hour" BIGINT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "log_rollup_state" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "last_log_id" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" BIGINT NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "log_rollups_user_id_hour_idx" ON "log_rollups"("user_id", "hour");

-- CreateIndex
CREATE INDEX "log_rollups_username_hour_idx" ON "log_rollups"("username", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "log_rollups_hour_user_id_username_model_name_key" ON "log_rollups"("hour", "user_id", "username", "model_name");


-- The one state row (lib/rollups/job.ts): nothing summed yet.
INSERT INTO "log_rollup_state" ("id", "last_log_id", "last_run_at") VALUES (1, 0, 0);

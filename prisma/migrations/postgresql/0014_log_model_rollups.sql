-- CreateTable
CREATE TABLE "log_model_rollups" (
    "id" SERIAL NOT NULL,
    "hour" BIGINT NOT NULL,
    "model_name" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "log_model_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "log_model_rollups_hour_model_name_key" ON "log_model_rollups"("hour", "model_name");

-- Filled from the per-user rollups (the same logs, id <= last_log_id), so that the two
-- tables agree from the start (docs/dashboard.md). The job's steps lock the state row first;
-- so does this, so no step adds to log_rollups between the copy and the commit.
SELECT 1 FROM "log_rollup_state" WHERE "id" = 1 FOR UPDATE;
INSERT INTO "log_model_rollups" ("hour", "model_name", "count", "prompt_tokens", "completion_tokens", "quota")
SELECT "hour", "model_name", SUM("count"), SUM("prompt_tokens"), SUM("completion_tokens"), SUM("quota")
FROM "log_rollups" GROUP BY "hour", "model_name";

-- CreateTable
CREATE TABLE "log_perf_model_rollups" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "span" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "group" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "calls" BIGINT NOT NULL DEFAULT 0,
    "successes" BIGINT NOT NULL DEFAULT 0,
    "ttft" TEXT NOT NULL DEFAULT '',
    "latency" TEXT NOT NULL DEFAULT '',
    "gen_tokens" BIGINT NOT NULL DEFAULT 0,
    "gen_ms" BIGINT NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "log_perf_channel_rollups" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "span" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "calls" BIGINT NOT NULL DEFAULT 0,
    "successes" BIGINT NOT NULL DEFAULT 0,
    "ttft" TEXT NOT NULL DEFAULT '',
    "latency" TEXT NOT NULL DEFAULT '',
    "gen_tokens" BIGINT NOT NULL DEFAULT 0,
    "gen_ms" BIGINT NOT NULL DEFAULT 0
);

-- AlterTable (a column with a constant default: no rewrite of the table)
ALTER TABLE "logs" ADD COLUMN "latency_ms" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "log_perf_model_rollups_span_group_bucket_idx" ON "log_perf_model_rollups"("span", "group", "bucket");

-- CreateIndex
CREATE INDEX "log_perf_model_rollups_span_bucket_idx" ON "log_perf_model_rollups"("span", "bucket");

-- CreateIndex
CREATE UNIQUE INDEX "log_perf_model_rollups_span_group_model_name_bucket_key" ON "log_perf_model_rollups"("span", "group", "model_name", "bucket");

-- CreateIndex
CREATE INDEX "log_perf_channel_rollups_span_bucket_idx" ON "log_perf_channel_rollups"("span", "bucket");

-- CreateIndex
CREATE UNIQUE INDEX "log_perf_channel_rollups_span_channel_id_bucket_key" ON "log_perf_channel_rollups"("span", "channel_id", "bucket");


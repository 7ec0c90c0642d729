-- DropIndex
DROP INDEX "logs_model_name_idx";

-- DropIndex
DROP INDEX "logs_token_name_idx";

-- DropIndex
DROP INDEX "logs_username_idx";

-- DropIndex
DROP INDEX "logs_channel_id_idx";

-- CreateIndex
CREATE INDEX "logs_model_name_created_at_idx" ON "logs"("model_name", "created_at");

-- CreateIndex
CREATE INDEX "logs_token_name_created_at_idx" ON "logs"("token_name", "created_at");

-- CreateIndex
CREATE INDEX "logs_username_created_at_idx" ON "logs"("username", "created_at");

-- CreateIndex
CREATE INDEX "logs_channel_id_created_at_idx" ON "logs"("channel_id", "created_at");


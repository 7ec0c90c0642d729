-- DropIndex
DROP INDEX "logs_token_name_created_at_idx";

-- CreateIndex
CREATE INDEX "logs_token_name_created_at_type_quota_idx" ON "logs"("token_name", "created_at", "type", "quota");


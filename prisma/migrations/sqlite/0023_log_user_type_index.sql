-- CreateIndex
CREATE INDEX "logs_user_id_type_created_at_idx" ON "logs"("user_id", "type", "created_at");


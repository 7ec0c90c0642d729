-- CreateIndex
CREATE INDEX "logs_request_id_idx" ON "logs"("request_id");


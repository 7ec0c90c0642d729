-- CreateTable
CREATE TABLE "audit_logs" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "created_at" BIGINT NOT NULL,
    "actor_id" INTEGER NOT NULL DEFAULT 0,
    "actor_name" TEXT NOT NULL DEFAULT '',
    "user_id" INTEGER NOT NULL DEFAULT 0,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL DEFAULT '',
    "target_id" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT NOT NULL DEFAULT '',
    "user_agent" TEXT NOT NULL DEFAULT '',
    "request_id" TEXT NOT NULL DEFAULT ''
);

-- CreateIndex
CREATE INDEX "audit_logs_actor_id_id_idx" ON "audit_logs"("actor_id", "id");

-- CreateIndex
CREATE INDEX "audit_logs_user_id_id_idx" ON "audit_logs"("user_id", "id");

-- CreateIndex
CREATE INDEX "audit_logs_action_id_idx" ON "audit_logs"("action", "id");

-- CreateIndex
CREATE INDEX "audit_logs_target_type_target_id_id_idx" ON "audit_logs"("target_type", "target_id", "id");

-- CreateIndex
CREATE INDEX "audit_logs_created_at_idx" ON "audit_logs"("created_at");


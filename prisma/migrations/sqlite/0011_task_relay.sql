-- The task relay (docs/tasks.md): upstream id, billing state and poll schedule of each task.
ALTER TABLE "image_tasks" ADD COLUMN "upstream_id" TEXT NOT NULL DEFAULT '';
ALTER TABLE "image_tasks" ADD COLUMN "token_id" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "image_tasks" ADD COLUMN "model_name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "image_tasks" ADD COLUMN "billing_ref" TEXT NOT NULL DEFAULT '';
ALTER TABLE "image_tasks" ADD COLUMN "billing_state" TEXT NOT NULL DEFAULT '';
ALTER TABLE "image_tasks" ADD COLUMN "billing_info" TEXT NOT NULL DEFAULT '';
ALTER TABLE "image_tasks" ADD COLUMN "next_poll_at" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "image_tasks" ADD COLUMN "poll_errors" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "image_tasks_billing_state_next_poll_at_idx" ON "image_tasks"("billing_state", "next_poll_at");
ALTER TABLE "creative_tasks" ADD COLUMN "upstream_id" TEXT NOT NULL DEFAULT '';
ALTER TABLE "creative_tasks" ADD COLUMN "token_id" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "creative_tasks" ADD COLUMN "model_name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "creative_tasks" ADD COLUMN "billing_ref" TEXT NOT NULL DEFAULT '';
ALTER TABLE "creative_tasks" ADD COLUMN "billing_state" TEXT NOT NULL DEFAULT '';
ALTER TABLE "creative_tasks" ADD COLUMN "billing_info" TEXT NOT NULL DEFAULT '';
ALTER TABLE "creative_tasks" ADD COLUMN "next_poll_at" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "creative_tasks" ADD COLUMN "poll_errors" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "creative_tasks_billing_state_next_poll_at_idx" ON "creative_tasks"("billing_state", "next_poll_at");

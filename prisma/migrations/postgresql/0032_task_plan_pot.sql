-- a task's price may be reserved from a plan's pot (docs/plans.md, "Tasks"): a column only
ALTER TABLE "image_tasks" ADD COLUMN "subscription_id" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "creative_tasks" ADD COLUMN "subscription_id" INTEGER NOT NULL DEFAULT 0;

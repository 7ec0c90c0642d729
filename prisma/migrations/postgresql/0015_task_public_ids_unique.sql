-- Public task ids are unique (docs/tasks.md, "Ids, channels, models"): the plain indexes of
-- 0001 become unique ones.
DROP INDEX "image_tasks_mj_id_idx";
CREATE UNIQUE INDEX "image_tasks_mj_id_key" ON "image_tasks"("mj_id");
DROP INDEX "creative_tasks_task_id_idx";
CREATE UNIQUE INDEX "creative_tasks_task_id_key" ON "creative_tasks"("task_id");

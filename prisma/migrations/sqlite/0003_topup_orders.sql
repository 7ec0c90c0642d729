-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_top_ups" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "user_id" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "money" REAL NOT NULL,
    "trade_no" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "create_time" BIGINT NOT NULL,
    "complete_time" BIGINT NOT NULL DEFAULT 0,
    "provider" TEXT NOT NULL DEFAULT '',
    "currency" TEXT NOT NULL DEFAULT 'CNY',
    "provider_ref" TEXT NOT NULL DEFAULT '',
    "paid_money" TEXT NOT NULL DEFAULT '',
    "top_up_code" TEXT NOT NULL DEFAULT '',
    "completed_by" TEXT NOT NULL DEFAULT '',
    "rebate_quota" BIGINT NOT NULL DEFAULT 0
);
INSERT INTO "new_top_ups" ("amount", "complete_time", "create_time", "id", "money", "payment_method", "status", "trade_no", "user_id") SELECT "amount", "complete_time", "create_time", "id", "money", "payment_method", "status", "trade_no", "user_id" FROM "top_ups";
DROP TABLE "top_ups";
ALTER TABLE "new_top_ups" RENAME TO "top_ups";
CREATE UNIQUE INDEX "top_ups_trade_no_key" ON "top_ups"("trade_no");
CREATE INDEX "top_ups_user_id_idx" ON "top_ups"("user_id");
CREATE INDEX "top_ups_status_create_time_idx" ON "top_ups"("status", "create_time");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- AlterTable
ALTER TABLE "users" ADD COLUMN     "billing_preference" TEXT NOT NULL DEFAULT 'plan_first',
ADD COLUMN     "wallet_fallback" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "quota_ledger" ADD COLUMN     "subscription_id" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "quota_holds" ADD COLUMN     "subscription_id" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "top_ups" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'topup',
ADD COLUMN     "plan_id" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "plans" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "price" TEXT NOT NULL DEFAULT '0',
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "duration_days" INTEGER NOT NULL DEFAULT 30,
    "quota" BIGINT NOT NULL DEFAULT 0,
    "reset_period" TEXT NOT NULL DEFAULT 'none',
    "upgrade_group" TEXT NOT NULL DEFAULT '',
    "expiry_group" TEXT NOT NULL DEFAULT '',
    "models" TEXT NOT NULL DEFAULT '',
    "max_per_user" INTEGER NOT NULL DEFAULT 0,
    "wallet_purchasable" BOOLEAN NOT NULL DEFAULT true,
    "carry_over" BOOLEAN NOT NULL DEFAULT false,
    "stripe_price_id" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" BIGINT NOT NULL DEFAULT 0,
    "updated_at" BIGINT NOT NULL DEFAULT 0,
    "deleted_at" BIGINT,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "plan_id" INTEGER NOT NULL,
    "plan_name" TEXT NOT NULL,
    "plan_snapshot" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'active',
    "source" TEXT NOT NULL DEFAULT '',
    "order_ref" TEXT NOT NULL DEFAULT '',
    "starts_at" BIGINT NOT NULL,
    "ends_at" BIGINT NOT NULL,
    "period_start" BIGINT NOT NULL,
    "next_reset_at" BIGINT NOT NULL DEFAULT 0,
    "reset_period" TEXT NOT NULL DEFAULT 'none',
    "period_quota" BIGINT NOT NULL,
    "period_used" BIGINT NOT NULL DEFAULT 0,
    "carried" BIGINT NOT NULL DEFAULT 0,
    "carry_over" BOOLEAN NOT NULL DEFAULT false,
    "models" TEXT NOT NULL DEFAULT '',
    "upgrade_group" TEXT NOT NULL DEFAULT '',
    "expiry_group" TEXT NOT NULL DEFAULT '',
    "duration_days" INTEGER NOT NULL DEFAULT 30,
    "stripe_subscription_id" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL DEFAULT 0,
    "updated_at" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plan_payment_events" (
    "key" TEXT NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "plan_payment_events_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "subscriptions_user_id_status_idx" ON "subscriptions"("user_id", "status");

-- CreateIndex
CREATE INDEX "subscriptions_status_ends_at_idx" ON "subscriptions"("status", "ends_at");

-- CreateIndex
CREATE INDEX "subscriptions_status_next_reset_at_idx" ON "subscriptions"("status", "next_reset_at");

-- CreateIndex
CREATE INDEX "subscriptions_plan_id_status_idx" ON "subscriptions"("plan_id", "status");

-- CreateIndex
CREATE INDEX "subscriptions_stripe_subscription_id_idx" ON "subscriptions"("stripe_subscription_id");


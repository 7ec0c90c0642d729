-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "password" TEXT NOT NULL,
    "display_name" TEXT NOT NULL DEFAULT '',
    "role" INTEGER NOT NULL DEFAULT 1,
    "status" INTEGER NOT NULL DEFAULT 1,
    "email" TEXT NOT NULL DEFAULT '',
    "github_id" TEXT NOT NULL DEFAULT '',
    "oidc_id" TEXT NOT NULL DEFAULT '',
    "wechat_id" TEXT NOT NULL DEFAULT '',
    "telegram_id" TEXT NOT NULL DEFAULT '',
    "linux_do_id" TEXT NOT NULL DEFAULT '',
    "idc_flare_id" TEXT NOT NULL DEFAULT '',
    "access_token_hash" TEXT,
    "quota" BIGINT NOT NULL DEFAULT 0,
    "used_quota" BIGINT NOT NULL DEFAULT 0,
    "request_count" INTEGER NOT NULL DEFAULT 0,
    "group" TEXT NOT NULL DEFAULT 'default',
    "aff_code" TEXT NOT NULL,
    "aff_count" INTEGER NOT NULL DEFAULT 0,
    "aff_quota" BIGINT NOT NULL DEFAULT 0,
    "aff_history_quota" BIGINT NOT NULL DEFAULT 0,
    "inviter_id" INTEGER NOT NULL DEFAULT 0,
    "setting" TEXT NOT NULL DEFAULT '',
    "remark" TEXT NOT NULL DEFAULT '',
    "created_time" BIGINT NOT NULL DEFAULT 0,
    "last_login_time" BIGINT NOT NULL DEFAULT 0,
    "deleted_at" BIGINT,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "options" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "options_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "setups" (
    "id" SERIAL NOT NULL,
    "version" TEXT NOT NULL,
    "initialized_at" BIGINT NOT NULL,

    CONSTRAINT "setups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL DEFAULT 1,
    "name" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL DEFAULT '',
    "status" INTEGER NOT NULL DEFAULT 1,
    "weight" INTEGER NOT NULL DEFAULT 0,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "group" TEXT NOT NULL DEFAULT 'default',
    "models" TEXT NOT NULL DEFAULT '',
    "tag" TEXT,
    "base_url" TEXT NOT NULL DEFAULT '',
    "other" TEXT NOT NULL DEFAULT '',
    "model_mapping" TEXT NOT NULL DEFAULT '',
    "status_code_mapping" TEXT NOT NULL DEFAULT '',
    "param_override" TEXT NOT NULL DEFAULT '',
    "header_override" TEXT NOT NULL DEFAULT '',
    "setting" TEXT NOT NULL DEFAULT '',
    "other_info" TEXT NOT NULL DEFAULT '',
    "test_model" TEXT NOT NULL DEFAULT '',
    "auto_ban" INTEGER NOT NULL DEFAULT 1,
    "remark" TEXT NOT NULL DEFAULT '',
    "balance" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "balance_updated_time" BIGINT NOT NULL DEFAULT 0,
    "used_quota" BIGINT NOT NULL DEFAULT 0,
    "response_time" INTEGER NOT NULL DEFAULT 0,
    "test_time" BIGINT NOT NULL DEFAULT 0,
    "created_time" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "abilities" (
    "group" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "weight" INTEGER NOT NULL DEFAULT 0,
    "tag" TEXT,

    CONSTRAINT "abilities_pkey" PRIMARY KEY ("group","model","channel_id")
);

-- CreateTable
CREATE TABLE "tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "key_hash" TEXT NOT NULL,
    "key_cipher" TEXT NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 1,
    "created_time" BIGINT NOT NULL DEFAULT 0,
    "accessed_time" BIGINT NOT NULL DEFAULT 0,
    "expired_time" BIGINT NOT NULL DEFAULT -1,
    "remain_quota" BIGINT NOT NULL DEFAULT 0,
    "unlimited_quota" BOOLEAN NOT NULL DEFAULT false,
    "used_quota" BIGINT NOT NULL DEFAULT 0,
    "model_limits_enabled" BOOLEAN NOT NULL DEFAULT false,
    "model_limits" TEXT NOT NULL DEFAULT '',
    "allow_ips" TEXT NOT NULL DEFAULT '',
    "group" TEXT NOT NULL DEFAULT '',
    "rate_limit_enabled" BOOLEAN NOT NULL DEFAULT false,
    "rate_limit_period" INTEGER NOT NULL DEFAULT 60,
    "rate_limit_count" INTEGER NOT NULL DEFAULT 1000,
    "rate_limit_success" INTEGER NOT NULL DEFAULT 10,
    "deleted_at" BIGINT,

    CONSTRAINT "tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "redemptions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL DEFAULT 0,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" INTEGER NOT NULL DEFAULT 1,
    "quota" BIGINT NOT NULL DEFAULT 100000,
    "is_gift" BOOLEAN NOT NULL DEFAULT false,
    "max_uses" INTEGER NOT NULL DEFAULT 1,
    "used_count" INTEGER NOT NULL DEFAULT 0,
    "valid_from" BIGINT NOT NULL DEFAULT 0,
    "valid_until" BIGINT NOT NULL DEFAULT 0,
    "created_time" BIGINT NOT NULL DEFAULT 0,
    "redeemed_time" BIGINT NOT NULL DEFAULT 0,
    "used_user_id" INTEGER NOT NULL DEFAULT 0,
    "deleted_at" BIGINT,

    CONSTRAINT "redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "redemption_uses" (
    "id" SERIAL NOT NULL,
    "redemption_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "quota" BIGINT NOT NULL,
    "created_time" BIGINT NOT NULL,

    CONSTRAINT "redemption_uses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "logs" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "username" TEXT NOT NULL DEFAULT '',
    "token_name" TEXT NOT NULL DEFAULT '',
    "token_id" INTEGER NOT NULL DEFAULT 0,
    "model_name" TEXT NOT NULL DEFAULT '',
    "quota" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "use_time" INTEGER NOT NULL DEFAULT 0,
    "is_stream" BOOLEAN NOT NULL DEFAULT false,
    "channel_id" INTEGER NOT NULL DEFAULT 0,
    "channel_name" TEXT NOT NULL DEFAULT '',
    "group" TEXT NOT NULL DEFAULT '',
    "ip" TEXT NOT NULL DEFAULT '',
    "request_id" TEXT NOT NULL DEFAULT '',
    "other" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quota_ledger" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token_id" INTEGER NOT NULL DEFAULT 0,
    "delta" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "quota_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "top_ups" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "money" DOUBLE PRECISION NOT NULL,
    "trade_no" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "create_time" BIGINT NOT NULL,
    "complete_time" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "top_ups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "check_ins" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "quota" BIGINT NOT NULL,
    "created_time" BIGINT NOT NULL,

    CONSTRAINT "check_ins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'markdown',
    "created_by" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_recipients" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "read_at" BIGINT,

    CONSTRAINT "message_recipients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "image_tasks" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "code" INTEGER NOT NULL DEFAULT 0,
    "action" TEXT NOT NULL DEFAULT '',
    "mj_id" TEXT NOT NULL DEFAULT '',
    "prompt" TEXT NOT NULL DEFAULT '',
    "prompt_en" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT '',
    "submit_time" BIGINT NOT NULL DEFAULT 0,
    "start_time" BIGINT NOT NULL DEFAULT 0,
    "finish_time" BIGINT NOT NULL DEFAULT 0,
    "image_url" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT '',
    "progress" TEXT NOT NULL DEFAULT '',
    "fail_reason" TEXT NOT NULL DEFAULT '',
    "channel_id" INTEGER NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,
    "buttons" TEXT NOT NULL DEFAULT '',
    "properties" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "image_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "creative_tasks" (
    "id" SERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "platform" TEXT NOT NULL DEFAULT '',
    "user_id" INTEGER NOT NULL,
    "channel_id" INTEGER NOT NULL DEFAULT 0,
    "quota" BIGINT NOT NULL DEFAULT 0,
    "action" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT '',
    "fail_reason" TEXT NOT NULL DEFAULT '',
    "submit_time" BIGINT NOT NULL DEFAULT 0,
    "start_time" BIGINT NOT NULL DEFAULT 0,
    "finish_time" BIGINT NOT NULL DEFAULT 0,
    "progress" TEXT NOT NULL DEFAULT '',
    "properties" TEXT NOT NULL DEFAULT '',
    "data" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL DEFAULT 0,
    "updated_at" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "creative_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "users_access_token_hash_key" ON "users"("access_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "users_aff_code_key" ON "users"("aff_code");

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_group_idx" ON "users"("group");

-- CreateIndex
CREATE INDEX "users_inviter_id_idx" ON "users"("inviter_id");

-- CreateIndex
CREATE INDEX "channels_status_idx" ON "channels"("status");

-- CreateIndex
CREATE INDEX "channels_tag_idx" ON "channels"("tag");

-- CreateIndex
CREATE INDEX "abilities_channel_id_idx" ON "abilities"("channel_id");

-- CreateIndex
CREATE INDEX "abilities_model_group_enabled_priority_idx" ON "abilities"("model", "group", "enabled", "priority");

-- CreateIndex
CREATE UNIQUE INDEX "tokens_key_hash_key" ON "tokens"("key_hash");

-- CreateIndex
CREATE INDEX "tokens_user_id_idx" ON "tokens"("user_id");

-- CreateIndex
CREATE INDEX "tokens_name_idx" ON "tokens"("name");

-- CreateIndex
CREATE UNIQUE INDEX "redemptions_key_key" ON "redemptions"("key");

-- CreateIndex
CREATE INDEX "redemptions_name_idx" ON "redemptions"("name");

-- CreateIndex
CREATE UNIQUE INDEX "redemption_uses_redemption_id_user_id_key" ON "redemption_uses"("redemption_id", "user_id");

-- CreateIndex
CREATE INDEX "logs_created_at_idx" ON "logs"("created_at");

-- CreateIndex
CREATE INDEX "logs_user_id_created_at_idx" ON "logs"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "logs_type_created_at_idx" ON "logs"("type", "created_at");

-- CreateIndex
CREATE INDEX "logs_model_name_idx" ON "logs"("model_name");

-- CreateIndex
CREATE INDEX "logs_token_name_idx" ON "logs"("token_name");

-- CreateIndex
CREATE INDEX "logs_username_idx" ON "logs"("username");

-- CreateIndex
CREATE INDEX "logs_channel_id_idx" ON "logs"("channel_id");

-- CreateIndex
CREATE INDEX "quota_ledger_user_id_id_idx" ON "quota_ledger"("user_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "top_ups_trade_no_key" ON "top_ups"("trade_no");

-- CreateIndex
CREATE INDEX "top_ups_user_id_idx" ON "top_ups"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "check_ins_user_id_day_key" ON "check_ins"("user_id", "day");

-- CreateIndex
CREATE INDEX "messages_created_at_idx" ON "messages"("created_at");

-- CreateIndex
CREATE INDEX "message_recipients_user_id_read_at_idx" ON "message_recipients"("user_id", "read_at");

-- CreateIndex
CREATE UNIQUE INDEX "message_recipients_message_id_user_id_key" ON "message_recipients"("message_id", "user_id");

-- CreateIndex
CREATE INDEX "image_tasks_user_id_idx" ON "image_tasks"("user_id");

-- CreateIndex
CREATE INDEX "image_tasks_mj_id_idx" ON "image_tasks"("mj_id");

-- CreateIndex
CREATE INDEX "image_tasks_submit_time_idx" ON "image_tasks"("submit_time");

-- CreateIndex
CREATE INDEX "creative_tasks_user_id_idx" ON "creative_tasks"("user_id");

-- CreateIndex
CREATE INDEX "creative_tasks_task_id_idx" ON "creative_tasks"("task_id");

-- CreateIndex
CREATE INDEX "creative_tasks_submit_time_idx" ON "creative_tasks"("submit_time");

-- AddForeignKey
ALTER TABLE "abilities" ADD CONSTRAINT "abilities_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "redemption_uses" ADD CONSTRAINT "redemption_uses_redemption_id_fkey" FOREIGN KEY ("redemption_id") REFERENCES "redemptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- CreateTable
CREATE TABLE "oauth_states" (
    "state_hash" TEXT NOT NULL,
    "browser_hash" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL DEFAULT 0,
    "aff" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("state_hash")
);

-- CreateIndex
CREATE INDEX "oauth_states_created_at_idx" ON "oauth_states"("created_at");


-- One account per provider identity: a provider id may be bound to one user only. Partial
-- indexes (the columns default to '' for "not bound"); both databases support them.
CREATE UNIQUE INDEX "users_github_id_bound_key" ON "users"("github_id") WHERE "github_id" <> '';
CREATE UNIQUE INDEX "users_oidc_id_bound_key" ON "users"("oidc_id") WHERE "oidc_id" <> '';
CREATE UNIQUE INDEX "users_wechat_id_bound_key" ON "users"("wechat_id") WHERE "wechat_id" <> '';
CREATE UNIQUE INDEX "users_telegram_id_bound_key" ON "users"("telegram_id") WHERE "telegram_id" <> '';
CREATE UNIQUE INDEX "users_linux_do_id_bound_key" ON "users"("linux_do_id") WHERE "linux_do_id" <> '';
CREATE UNIQUE INDEX "users_idc_flare_id_bound_key" ON "users"("idc_flare_id") WHERE "idc_flare_id" <> '';

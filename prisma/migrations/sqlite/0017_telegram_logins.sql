-- Telegram login payloads already used (docs/oauth.md, "Telegram"): one row per signed payload,
-- until auth_date plus a day.
-- CreateTable
CREATE TABLE "telegram_logins" (
    "payload_hash" TEXT NOT NULL PRIMARY KEY,
    "expires_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "telegram_logins_expires_at_idx" ON "telegram_logins"("expires_at");


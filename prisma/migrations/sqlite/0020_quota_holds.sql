-- Quota holds: one row per open relay reservation, and the nodes' heartbeats that tell the sweeper
-- which nodes are dead (docs/channels-tokens-billing.md, "Holds").
-- CreateTable
CREATE TABLE "quota_holds" (
    "ref" TEXT NOT NULL PRIMARY KEY,
    "user_id" INTEGER NOT NULL,
    "token_id" INTEGER NOT NULL DEFAULT 0,
    "unlimited_token" BOOLEAN NOT NULL DEFAULT false,
    "amount" BIGINT NOT NULL,
    "node_id" TEXT NOT NULL,
    "started_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "relay_nodes" (
    "node_id" TEXT NOT NULL PRIMARY KEY,
    "seen_at" BIGINT NOT NULL,
    "started_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "quota_holds_node_id_started_at_idx" ON "quota_holds"("node_id", "started_at");


// POST /api/channel/{id}/key: a channel's stored key (all its key lines for a multi-key
// channel), for the root or an admin granted channels:reveal (docs/permissions.md). The one
// answer that holds a channel key: every other view carries key_set only
// (docs/channels-tokens-billing.md); each reveal is an audit row (docs/audit.md). Like the
// other sensitive actions, it needs a fresh second factor when the actor has one
// (docs/two-factor.md, "Sensitive actions").
import "server-only";
import { open } from "@/lib/auth/secret-box";
import { recordAudit } from "@/lib/audit/record";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { requireFreshFactor } from "@/lib/twofa/fresh";

export async function revealChannelKey({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  await requireFreshFactor(ctx);
  const channel = await db().channel.findUnique({ where: { id }, select: { id: true, name: true, key: true } });
  if (!channel) throw new AppError("NOT_FOUND", "channel_not_found");
  await recordAudit(ctx, { action: "channel_key_reveal", target: { type: "channel", id }, detail: { name: channel.name } });
  return { key: channel.key ? open(channel.key) : "" };
}

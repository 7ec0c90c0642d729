// PUT /api/channel/tag: rename the tag and/or set model_mapping, groups, models, priority,
// weight of all its channels.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { channelsChanged, rebuildMany } from "@/lib/channels/shared";
import { splitList } from "@/lib/channels/split-list";
import { columns } from "@/lib/channels/schemas";

export async function editTag({
  input,
}: {
  ctx: UserCtx;
  input: {
    tag: string;
    new_tag?: string | null;
    model_mapping?: string | null;
    groups?: string | string[] | null;
    models?: string | string[] | null;
    priority?: unknown;
    weight?: unknown;
  };
}): Promise<number> {
  if (!input.tag.trim()) throw new AppError("INVALID_INPUT", "tag_required");
  const data = columns(
    {
      tag: input.new_tag === undefined || input.new_tag === null || input.new_tag === "" ? undefined : input.new_tag,
      model_mapping: input.model_mapping || undefined,
      groups: input.groups ? (Array.isArray(input.groups) ? input.groups : splitList(input.groups)) : undefined,
      models: input.models || undefined,
      priority: input.priority ?? undefined,
      weight: input.weight ?? undefined,
    },
    { clampWeight: true },
  );
  const newTag = (data.tag as string | undefined) ?? input.tag;
  // the channels renamed to the new tag are among those read back under it
  const written = await db().$transaction(async (tx) => {
    await tx.channel.updateMany({ where: { tag: input.tag }, data });
    return rebuildMany(tx, { tag: newTag });
  });
  await channelsChanged(written);
  return written.length;
}

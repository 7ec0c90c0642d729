// Query-string shapes shared by the channel list and search routes.
import "server-only";
import { z } from "zod";
import { page, pageSize } from "@/lib/http/params";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const intList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n > 0),
  );
const strList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

export const channelListQuery = z.object({
  p: page,
  page_size: pageSize(10),
  id_sort: flag,
  tag_mode: flag,
  keyword: z.string().max(200).optional(),
  group: z.string().max(100).optional(),
  model: z.string().max(200).optional(),
  type: intList,
  types: intList,
  status: intList,
  statuses: intList,
  tags: strList,
  tag: strList,
});

export function filterOf(q: z.infer<typeof channelListQuery>) {
  return {
    keyword: q.keyword?.trim() || undefined,
    group: q.group?.trim() || undefined,
    model: q.model?.trim() || undefined,
    types: [...q.types, ...q.type],
    statuses: [...q.statuses, ...q.status],
    tags: [...q.tags, ...q.tag],
  };
}

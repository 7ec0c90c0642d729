// The performance reads' query (docs/performance.md, "Calls"): GET /api/perf/models and GET
// /api/perf/channels take the same range as the usage data, and rows per hour, per UTC day or
// one per model or channel for the whole range.
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { MAX_TIMESTAMP } from "@/lib/http/params";

/** The longest range one call reads: a year and a day; per hour, a month and a day. */
export const PERF_MAX_DAYS = 366;
export const PERF_HOURLY_MAX_DAYS = 32;

const stamp = z.coerce.number().int().min(0).max(MAX_TIMESTAMP);
export const perfQuery = z.object({
  start_timestamp: stamp,
  end_timestamp: stamp,
  granularity: z.enum(["hour", "day", "total"]).default("hour"),
  group: z.string().trim().max(64).optional(),
  // one model, or several separated by commas (as a channel's model list): the performance
  // tab asks the hourly rows of its charts' models only
  model_name: z.string().trim().max(4000).optional(),
  channel_id: z.coerce.number().int().min(1).optional(),
});
export type PerfQuery = z.infer<typeof perfQuery>;

export function checkPerfRange(q: PerfQuery): void {
  if (q.end_timestamp < q.start_timestamp) throw new AppError("INVALID_INPUT", "data_range_invalid");
  const days = q.granularity === "hour" ? PERF_HOURLY_MAX_DAYS : PERF_MAX_DAYS;
  if (q.end_timestamp - q.start_timestamp > days * 86_400) throw new AppError("INVALID_INPUT", "data_range_too_long", { days });
}

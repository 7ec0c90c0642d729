// GET /api/status/models (docs/performance.md, "Status page"): with StatusPageEnabled on, public:
// every model the default group can use, with its availability (success rate) and median time
// to first token over the last 24 hours and the last 7 days; with it off, HTTP 404. The
// answer is kept STATUS_TTL_MS, so that a public page's visitors cost one read a minute.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { getBool } from "@/lib/options/store";
import { Reply } from "@/lib/http/route";
import { modelGroups } from "@/lib/channels/channel-cache";
import { perfRows, type PerfRow } from "@/lib/rollups/perf-read";
import { rollupState } from "@/lib/rollups/job";
import { nowSeconds } from "@/lib/time";

export const STATUS_GROUP = "default";
const STATUS_TTL_MS = 60_000;
const DAY = 86_400;

type Window = { calls: number; success_rate: number | null; ttft_p50_ms: number | null; latency_p50_ms: number | null };
export type StatusModels = { group: string; updated_at: number; models: { model_name: string; day: Window; week: Window }[] };

const cache = globalThis as unknown as { __gatewayStatusModels?: { at: number; data: StatusModels } };

const windowOf = (r: PerfRow | undefined): Window => ({
  calls: r?.calls ?? 0,
  success_rate: r?.success_rate ?? null,
  ttft_p50_ms: r?.ttft_p50_ms ?? null,
  latency_p50_ms: r?.latency_p50_ms ?? null,
});

export async function readStatusModels(): Promise<StatusModels> {
  const hit = cache.__gatewayStatusModels;
  if (hit && Date.now() - hit.at < STATUS_TTL_MS) return hit.data;
  const now = nowSeconds();
  const filter = { dim: "model" as const, groups: [STATUS_GROUP] };
  const [served, day, week, state] = await Promise.all([
    modelGroups(),
    perfRows(filter, now - DAY + 1, now, "total"),
    perfRows(filter, now - 7 * DAY + 1, now, "total"),
    rollupState(),
  ]);
  const byModel = (rows: PerfRow[]) => new Map(rows.map((r) => [r.model_name ?? "", r]));
  const d = byModel(day);
  const w = byModel(week);
  const models = [...served.entries()]
    .filter(([, groups]) => groups.includes(STATUS_GROUP))
    .map(([m]) => m)
    .sort((a, b) => a.localeCompare(b))
    .map((m) => ({ model_name: m, day: windowOf(d.get(m)), week: windowOf(w.get(m)) }));
  const data = { group: STATUS_GROUP, updated_at: state.last_run_at, models };
  cache.__gatewayStatusModels = { at: Date.now(), data };
  return data;
}

export async function statusModels({ ctx }: { ctx: Ctx }) {
  if (!getBool("StatusPageEnabled")) return new Reply({ status: 404, message: ctx.t("status_page_disabled") });
  return readStatusModels();
}

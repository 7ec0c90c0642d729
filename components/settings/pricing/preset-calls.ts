"use client";
// The preset actions of the pricing settings (docs/pricing.md, "Fetch, reset and fill"):
// server verbs called quietly, so that a failure shows the action's own message
// (获取预设倍率失败，请重试 and its siblings) and then the server's reason, if it gave one.
import { api, ApiError } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export type PresetAction = "fetch" | "reset" | "fill";

const FAILED: Record<PresetAction, string> = {
  fetch: "pricingEditor.fetchFailed",
  reset: "pricingEditor.resetFailed",
  fill: "pricingEditor.fillFailed",
};

export async function presetCall<T>(action: PresetAction, path: string, body: unknown = {}): Promise<T | null> {
  try {
    return (await api.post<T>(path, body, { quiet: true })).data;
  } catch (e) {
    toast.error({ key: FAILED[action] });
    if (e instanceof ApiError && e.failure.kind === "message") toast.error({ key: "errors.prefixed", values: { message: e.message } });
    return null;
  }
}

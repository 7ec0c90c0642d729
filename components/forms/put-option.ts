"use client";
// The two ends of a settings save shared by every screen that writes options (the settings
// kit's sections, the visual pricing editor): one PUT /api/option/ per key, and the toast
// that reports the outcome (docs/settings.md, "Saving").
import { api, ApiError } from "@/lib/client/api";
import type { OptionChange, PutOutcome, SaveResult } from "@/lib/client/save-options";
import { toast } from "@/lib/client/toast";

export async function putOption(change: OptionChange): Promise<PutOutcome> {
  try {
    await api.put("/api/option/", change);
    return { ok: true };
  } catch (e) {
    // api.put has shown the server's message (or the catalogue's) already
    if (e instanceof ApiError && e.failure.kind === "message") return { ok: false, kind: "refused", message: e.message };
    return { ok: false, kind: "request" };
  }
}

/** The message for a save's outcome: saved, partly failed, or failed (nothing for "unchanged"). */
export function toastSaveResult(result: SaveResult): void {
  if (result.outcome === "success") toast.success({ key: "settingsKit.saved" });
  else if (result.outcome === "partial") toast.error({ key: "settingsKit.partialFailed" });
  else if (result.outcome === "failed") toast.error({ key: "settingsKit.saveFailed" });
}

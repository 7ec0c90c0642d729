// The update check of the settings page (docs/settings.md): the release source named by the
// option UpdateCheckUrl (an API answering {tag_name, body} like a public release API) is read
// by the server (through the worker when WorkerUrl is set, else under the outbound policy:
// lib/settings/fetch-json.ts) and its tag compared with the running version.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { fetchJsonDocument } from "@/lib/settings/fetch-json";
import { APP_VERSION } from "@/lib/version";

export type UpdateInfo = { current_version: string; tag_name: string; body: string; update_available: boolean };

/** Compares two version tags ("v1.2.3", "1.10.0-beta"): numeric parts in order, >0 when a is newer. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .trim()
      .replace(/^v/i, "")
      .split(/[-+]/)[0]
      .split(".")
      .map((x) => Number.parseInt(x, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export async function checkUpdate({ ctx }: { ctx: UserCtx }): Promise<UpdateInfo> {
  const url = getOption("UpdateCheckUrl").trim();
  if (url === "") throw new AppError("INVALID_INPUT", "update_check_not_configured");
  const doc = await fetchJsonDocument(ctx, url, "update_check_refused");
  if (!doc || typeof doc.tag_name !== "string" || doc.tag_name.trim() === "") throw new AppError("INVALID_INPUT", "update_check_failed");
  const body = typeof doc.body === "string" ? doc.body : "";
  return { current_version: APP_VERSION, tag_name: doc.tag_name, body, update_available: compareVersions(doc.tag_name, APP_VERSION) > 0 };
}

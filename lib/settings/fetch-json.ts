// A small JSON document fetched for the settings page: OIDC discovery and the update check.
// The URL was typed into the console, so it goes through the worker when WorkerUrl is set,
// else directly under the outbound policy's admin scope (lib/net/worker.ts, docs/outbound.md
// "Worker"). Bounded in time and in bytes (lib/net/read-capped.ts). An address the policy
// refuses is the caller's `refusedKey`, naming the class refused (docs/outbound.md
// "Messages"); any other failure (network, status, size, not JSON) is null, the caller says
// what failed.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { readCappedText } from "@/lib/net/read-capped";
import { fetchConsoleUrl } from "@/lib/net/worker";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1_000_000;

export async function fetchJsonDocument(ctx: Ctx, url: string, refusedKey: MessageKey): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetchConsoleUrl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const text = await readCappedText(res, MAX_BYTES);
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch (e) {
    const refusal = outboundRefusal(e);
    if (refusal) throw new AppError("INVALID_INPUT", refusedKey, { detail: ctx.t(refusalMessageKey(refusal.reason, refusal.scope)) });
    return null;
  }
}

// A small JSON document fetched for the settings page: OIDC discovery and the update check.
// The URL was typed into the console, so it goes through the worker when WorkerUrl is set,
// else directly under the outbound policy (lib/net/worker.ts, docs/outbound.md "Worker").
// Bounded in time and in bytes (lib/net/read-capped.ts); any failure (refused address, network, status, size, not JSON)
// is null, the caller says what failed.
import "server-only";
import { readCappedText } from "@/lib/net/read-capped";
import { fetchUserUrl } from "@/lib/net/worker";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1_000_000;

export async function fetchJsonDocument(url: string): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetchUserUrl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const text = await readCappedText(res, MAX_BYTES);
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

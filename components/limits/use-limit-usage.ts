"use client";
// What is used of the limits now: GET /api/usage/limits (docs/api-reference.md), the
// caller's own, or one of the caller's tokens (`token_id`), or, for an admin, one user's
// (`user_id`). Re-read every 15 s while shown, and on demand (`mutate`).
import useSWR from "swr";
import type { LimitUsage } from "@/lib/client/limits";

export function limitUsagePath(q: { token_id?: number; user_id?: number } = {}): string {
  const params = new URLSearchParams();
  if (q.token_id !== undefined) params.set("token_id", String(q.token_id));
  if (q.user_id !== undefined) params.set("user_id", String(q.user_id));
  const s = params.toString();
  return s ? `/api/usage/limits?${s}` : "/api/usage/limits";
}

export function useLimitUsage(path: string | null) {
  return useSWR<LimitUsage[]>(path, { refreshInterval: 15000, revalidateOnFocus: true });
}

/** The usage of several of the caller's tokens in one call (?token_ids=), by token id. */
export function useTokensLimitUsage(tokenIds: number[]): Map<number, LimitUsage[]> {
  const path = tokenIds.length ? `/api/usage/limits?token_ids=${tokenIds.join(",")}` : null;
  const { data } = useSWR<{ token_id: number; limits: LimitUsage[] }[]>(path, { refreshInterval: 15000, revalidateOnFocus: true });
  return new Map((data ?? []).map((r) => [r.token_id, r.limits]));
}

"use client";
// What a channel row, a tag row and the title's buttons do: each call shows the server's answer
// (the API helper toasts failures) and refreshes the list.
import { useState } from "react";
import { splitList } from "@/lib/channels/split-list";
import { api, ApiError, reportFailure } from "@/lib/client/api";
import { failureText } from "@/lib/client/failure";
import { inlinePriority, inlineWeight } from "@/lib/client/channels";
import { replaceToast, toast } from "@/lib/client/toast";
import { testChannelModel } from "./model-test-dialog";
import type { Channel, TagRow } from "./types";
import { CHANNEL_STATUS } from "@/lib/statuses";

export type ChannelActions = ReturnType<typeof useChannelActions>;

export function useChannelActions({ refresh, revalidate, errorText }: { refresh: () => void; revalidate: () => void; errorText: (key: string) => string }) {
  const [busy, setBusy] = useState(false);

  async function act<T>(fn: () => Promise<T>, done?: (r: T) => void) {
    setBusy(true);
    try {
      const r = await fn();
      done?.(r);
      refresh();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  // Inline priority / weight of a channel or of every channel of a tag.
  async function commitNumber(row: Channel | TagRow, field: "priority" | "weight", text: string): Promise<boolean> {
    const parsed = field === "priority" ? inlinePriority(text) : inlineWeight(text);
    if ("error" in parsed) {
      toast.error({ key: `channels.${parsed.error}` });
      return false;
    }
    try {
      if (row.is_tag) await api.put("/api/channel/tag", { tag: row.tag, [field]: parsed.value });
      else await api.put("/api/channel/", { id: row.id, [field]: parsed.value });
      toast.success({ key: "channels.saved" });
      revalidate();
      return true;
    } catch {
      return false;
    }
  }

  return {
    busy,
    act,
    commitNumber,
    setStatus: (c: Channel, status: 1 | 2) =>
      act(
        () => api.put("/api/channel/", { id: c.id, status }),
        () => toast.success({ key: status === CHANNEL_STATUS.enabled ? "channels.enabled" : "channels.disabled" }),
      ),
    setTagStatus: (tag: string, status: 1 | 2) =>
      act(
        () => api.post(`/api/channel/tag/${status === CHANNEL_STATUS.enabled ? "enabled" : "disabled"}`, { tag }),
        () => toast.success({ key: status === CHANNEL_STATUS.enabled ? "channels.enabled" : "channels.disabled" }),
      ),
    // Test one channel with its test model (or its first model): the server's answer is shown.
    testOne: async (c: Channel) => {
      const model = c.test_model || splitList(c.models)[0] || "";
      // the result takes the place of the "testing…" toast
      const testing = toast.info({ key: "channels.testing", values: { name: c.name } });
      const r = await testChannelModel(c.id, model, errorText);
      if (r.success) replaceToast(testing, "success", { key: "channels.testOk", values: { name: c.name, time: r.time.toFixed(2) } });
      else replaceToast(testing, "error", { key: "channels.testFailed", values: { name: c.name, message: r.message } });
      revalidate();
    },
    refreshBalance: (c: Channel) =>
      act(
        () => api.get<{ balance: number }>(`/api/channel/update_balance/${c.id}`),
        (r) => toast.success({ key: "channels.balanceUpdated", values: { name: c.name, balance: r.data.balance.toFixed(2) } }),
      ),
    refreshAllBalances: () =>
      act(
        () => api.get<{ updated: number; failed: number; skipped: number }>("/api/channel/update_balance"),
        (r) => toast.success({ key: "channels.balancesUpdated", values: r.data }),
      ),
    // A failed copy says so: "Copy failed: <why>" (docs/console-ui.md).
    copy: (c: Channel) =>
      act(
        () =>
          api.post(`/api/channel/copy/${c.id}`, {}, { quiet: true }).catch((err: unknown) => {
            if (err instanceof ApiError && err.failure.kind === "expired") reportFailure(err.failure);
            else toast.error({ key: "channels.copyFailed", values: { message: failureText(err, errorText) } });
            throw err;
          }),
        () => toast.success({ key: "channels.copied" }),
      ),
    remove: (c: Channel) =>
      act(
        () => api.del(`/api/channel/${c.id}`),
        () => toast.success({ key: "channels.deleted" }),
      ),
  };
}

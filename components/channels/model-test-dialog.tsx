"use client";
// The per-channel model test panel (docs/product-rules.md, "Relay console pages"): tests the channel's models in
// batches of 3 with a 200 ms pause, retries retryable failures twice with backoff, shows
// progress completed/total, can be cancelled (reported as information), and afterwards
// offers to delete the failed models (refused if none would remain) or retry them.
// Results are kept 24 hours per channel in localStorage.
import { RotateCw, Trash } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { api, ApiError } from "@/lib/client/api";
import { failureText, isRetryableFailure } from "@/lib/client/failure";
import { splitList } from "@/lib/channels/split-list";
import {
  cachedResults,
  runModelTests,
  storeResults,
  TestCancelled,
  withoutFailed,
  type ModelTestOutcome,
  type ModelTestResult,
  type TestCache,
} from "@/lib/client/model-tests";
import { readJson, STORAGE_KEYS, writeJson } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import type { Channel } from "./types";

type TestAnswer = { success: boolean; message: string; time?: number; data?: { time?: number } | null };

// One test call: GET /api/channel/test/{id}?model. The server's answer is shown as it is,
// and the server decides whether a failure is worth retrying (isRetryable: not for a bad key
// or an unknown model); without its answer (network, 5xx) the status decides. The time is the
// server's (the upstream call's), the browser's round trip only when the server said none.
export async function testChannelModel(channelId: number, model: string, errorText: (k: string) => string, signal?: AbortSignal): Promise<ModelTestOutcome> {
  const started = Date.now();
  try {
    const r = (await api.get<TestAnswer["data"]>(`/api/channel/test/${channelId}?model=${encodeURIComponent(model)}`, { quiet: true, signal })) as TestAnswer;
    const time = Number(r.time ?? r.data?.time ?? (Date.now() - started) / 1000);
    return { success: true, message: r.message ?? "", time, retryable: false };
  } catch (err) {
    if (signal?.aborted) throw new TestCancelled();
    const body = err instanceof ApiError ? (err.body as { isRetryable?: unknown; time?: unknown } | null) : null;
    const retryable = typeof body?.isRetryable === "boolean" ? body.isRetryable : isRetryableFailure(err);
    const time = typeof body?.time === "number" ? body.time : (Date.now() - started) / 1000;
    return { success: false, message: failureText(err, errorText), time, retryable };
  }
}

export function ModelTestDialog({ channel, onClose, onModelsChanged }: { channel: Channel | null; onClose: () => void; onModelsChanged: () => void }) {
  const t = useTranslations("channels.test");
  const te = useTranslations("errors");
  const [results, setResults] = useState<ModelTestResult[]>([]);
  const [progress, setProgress] = useState<{ completed: number; total: number } | null>(null);
  const [running, setRunning] = useState(false);
  const [filter, setFilter] = useState("");
  const abort = useRef<AbortController | null>(null);
  const models = splitList(channel?.models);

  useEffect(() => {
    if (!channel) return;
    setResults(cachedResults(readJson<TestCache>(STORAGE_KEYS.channelTestResults), channel.id, Date.now()) ?? []);
    setProgress(null);
    setFilter("");
  }, [channel]);

  async function run(list: string[]) {
    if (!channel) return;
    if (!list.length) {
      toast.warning({ key: "channels.test.noModels" });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setProgress({ completed: 0, total: list.length });
    // Results of models not in this run stay; the tested ones are replaced as they arrive.
    let current = results.filter((r) => !list.includes(r.model));
    setResults(current);
    try {
      await runModelTests({
        models: list,
        signal: controller.signal,
        test: (m, signal) => testChannelModel(channel.id, m, te, signal),
        onResult: (r, completed, total) => {
          current = [...current.filter((x) => x.model !== r.model), r];
          setResults(current);
          setProgress({ completed, total });
        },
      });
      const failed = current.filter((r) => !r.success).length;
      toast[failed ? "warning" : "success"]({ key: "channels.test.finished", values: { ok: current.length - failed, failed } });
    } catch (err) {
      if (err instanceof TestCancelled) toast.info({ key: "channels.test.cancelled" });
      else throw err;
    } finally {
      writeJson(STORAGE_KEYS.channelTestResults, storeResults(readJson<TestCache>(STORAGE_KEYS.channelTestResults), channel.id, current, Date.now()));
      abort.current = null;
      setRunning(false);
    }
  }

  async function deleteFailed() {
    if (!channel) return;
    const failed = results.filter((r) => !r.success);
    if (!failed.length) {
      toast.info({ key: "channels.test.noFailed" });
      return;
    }
    const left = withoutFailed(models, results);
    if (!left) {
      toast.error({ key: "channels.test.wouldBeEmpty" });
      return;
    }
    try {
      await api.put("/api/channel/", { id: channel.id, models: left.join(",") });
      toast.success({ key: "channels.test.deletedFailed", values: { count: models.length - left.length } });
      const kept = results.filter((r) => r.success);
      setResults(kept);
      writeJson(STORAGE_KEYS.channelTestResults, storeResults(readJson<TestCache>(STORAGE_KEYS.channelTestResults), channel.id, kept, Date.now()));
      onModelsChanged();
    } catch {
      // reported by the API helper
    }
  }

  // Only the failures the server called retryable are run again (docs/product-rules.md, "Relay console pages").
  function retryFailed() {
    const failed = results.filter((r) => !r.success);
    if (!failed.length) {
      toast.info({ key: "channels.test.noFailed" });
      return;
    }
    const retryable = failed.filter((r) => r.isRetryable).map((r) => r.model);
    if (!retryable.length) {
      toast.info({ key: "channels.test.noRetryable" });
      return;
    }
    void run(retryable);
  }

  const byModel = new Map(results.map((r) => [r.model, r]));
  const shown = models.filter((m) => m.toLowerCase().includes(filter.trim().toLowerCase()));
  const failedCount = results.filter((r) => !r.success).length;

  return (
    <Dialog
      open={channel !== null}
      onOpenChange={(o) => {
        if (!o) {
          abort.current?.abort();
          onClose();
        }
      }}
      title={t("title", { name: channel?.name ?? "" })}
      description={t("description")}
      footer={
        <>
          {running ? (
            <Button variant="secondary" onClick={() => abort.current?.abort()}>
              {t("cancel")}
            </Button>
          ) : (
            <>
              <Button variant="secondary" disabled={!failedCount} onClick={retryFailed}>
                <RotateCw aria-hidden className="h-4 w-4" />
                {t("retryFailed")}
              </Button>
              <Button variant="danger" disabled={!failedCount} onClick={deleteFailed}>
                <Trash aria-hidden className="h-4 w-4" />
                {t("deleteFailed")}
              </Button>
              <Button onClick={() => void run(models)}>{t("start")}</Button>
            </>
          )}
        </>
      }
    >
      <div className="flex items-center gap-3">
        <Input aria-label={t("filter")} placeholder={t("filter")} value={filter} onChange={(e) => setFilter(e.target.value)} className="max-w-xs" />
        {progress && (
          <span role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {t("progress", progress)}
          </span>
        )}
      </div>
      {progress && (
        <div className="h-2 w-full overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800" aria-hidden>
          <div className="h-full bg-blue-600 transition-all" style={{ width: `${(progress.completed / Math.max(1, progress.total)) * 100}%` }} />
        </div>
      )}
      <div className="max-h-96 overflow-y-auto">
        <Table>
          <thead>
            <tr>
              <Th>{t("model")}</Th>
              <Th>{t("result")}</Th>
              <Th>{t("time")}</Th>
              <Th>{t("message")}</Th>
              <Th />
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && <EmptyRow colSpan={5}>{t("noModels")}</EmptyRow>}
            {shown.map((m) => {
              const r = byModel.get(m);
              return (
                <tr key={m} data-testid={`model-test-${m}`}>
                  <Td className="font-mono text-xs">{m}</Td>
                  <Td>
                    {r ? <Badge color={r.success ? "green" : "red"}>{r.success ? t("ok") : t("failed")}</Badge> : <Badge>{t("untested")}</Badge>}
                    {r && r.retryCount > 0 && <span className="ml-1 text-xs text-zinc-500">{t("retries", { n: r.retryCount })}</span>}
                  </Td>
                  <Td className="text-xs">{r ? `${r.time.toFixed(2)}s` : ""}</Td>
                  <Td className="max-w-56 truncate text-xs" title={r?.message}>
                    {r?.message}
                  </Td>
                  <Td>
                    <Button size="sm" variant="ghost" disabled={running} onClick={() => void run([m])}>
                      {t("testOne")}
                    </Button>
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </div>
    </Dialog>
  );
}

"use client";
// "Test all enabled" on the channels page: GET /api/channel/test starts the server's
// background job (or reports the running one), then GET /api/channel/test/progress is polled
// every second until the job is done, whose counts are shown and toasted. A job already
// running when the page opens (another tab, a reload) is picked up and followed too.
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { failureText } from "@/lib/client/failure";
import { toast } from "@/lib/client/toast";

export type TestAllProgress = { running: boolean; total: number; tested: number; passed: number; failed: number; started_at: number; finished_at: number };

const POLL_MS = 1000;
const PROGRESS_PATH = "/api/channel/test/progress";

export function useTestAll(errorText: (key: string) => string, onFinished: () => void) {
  const [progress, setProgress] = useState<TestAllProgress | null>(null);
  const alive = useRef(true);
  const polling = useRef(false);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  async function follow() {
    if (polling.current) return;
    polling.current = true;
    try {
      while (alive.current) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (!alive.current) return;
        const p = (await api.get<TestAllProgress>(PROGRESS_PATH, { quiet: true })).data;
        if (!alive.current) return;
        setProgress(p);
        if (!p.running) {
          const values = { tested: p.tested, passed: p.passed, failed: p.failed };
          if (p.failed) toast.warning({ key: "channels.testAllDone", values });
          else toast.success({ key: "channels.testAllDone", values });
          finished.current();
          return;
        }
      }
    } catch (err) {
      if (alive.current) toast.error({ key: "channels.testAllFailed", values: { message: failureText(err, errorText) } });
    } finally {
      polling.current = false;
    }
  }

  useEffect(() => {
    alive.current = true;
    api
      .get<TestAllProgress>(PROGRESS_PATH, { quiet: true })
      .then((r) => {
        if (alive.current && r.data.running) {
          setProgress(r.data);
          void follow();
        }
      })
      .catch(() => {});
    return () => {
      alive.current = false;
    };
    // Once, on mount: follow() reads only refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function start() {
    try {
      const r = await api.get<TestAllProgress>("/api/channel/test", { quiet: true });
      setProgress(r.data);
      toast.info(r.message ? { text: r.message } : { key: "channels.testAllStarted" });
      void follow();
    } catch (err) {
      toast.error({ key: "channels.testAllFailed", values: { message: failureText(err, errorText) } });
    }
  }

  return { progress, start };
}

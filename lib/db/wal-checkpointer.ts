// SQLite WAL checkpoints on a worker thread, so that the event loop never waits for a disk
// flush.
//
// Left to itself, SQLite checkpoints inside the commit that takes the WAL past 1000 pages:
// that commit copies pages into the database file and fsyncs twice. On a virtual disk an
// fsync now and then takes hundreds of milliseconds, and with the connection being
// synchronous the whole process stands still meanwhile (bench/README.md: p99 of seconds).
// So the main connection never checkpoints (wal_autocheckpoint = 0); a worker thread with
// a connection of its own runs PASSIVE checkpoints, which neither wait for nor block
// writers.
//
// A WAL only starts again from its beginning when a write transaction begins while every
// frame has been copied back. Under continuous writes that moment never comes by itself,
// so once the WAL holds `restartFrames` frames the writes we queue (billing movements and
// usage-log batches, through whenSqliteIdle) are held while the worker copies the last
// frames; the first write after that restarts the WAL. At one connection that delays one
// call every few thousand; everything else goes on meanwhile.
import "server-only";
import { logger } from "@/lib/logger";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";

const log = logger("db");

const DEFAULTS = {
  intervalMs: 200,
  // 8 MiB of 1 KiB pages (32 MiB of 4 KiB). Bounded by frames, not bytes: every page read
  // consults the WAL index, one hash table per 4096 frames (a 32768-frame bound gave no gain)
  restartFrames: 8192,
  holdAtMostMs: 2000, // never hold writes longer, whatever the worker does
};

// Worker source, CommonJS: it loads better-sqlite3 from the path the main thread resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("synchronous = NORMAL");
db.pragma("secure_delete = ON"); // as every connection to the file (docs/secrets.md)
parentPort.on("message", () => {
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ frames: Number(r.log) });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message) });
  }
});
`;

type Report = { frames: number } | { error: string };

type Checkpointer = { held: Promise<void> | null; stop: () => Promise<void> };
const holder = globalThis as unknown as { __gatewayWalCheckpointer?: Checkpointer };

// While the WAL is being brought back to its start: the promise to wait for before writing.
export function walWritesHeld(): Promise<void> | null {
  return holder.__gatewayWalCheckpointer?.held ?? null;
}

export function startWalCheckpointer(conn: BetterSqlite3.Database, file: string, options: Partial<typeof DEFAULTS> = {}): void {
  if (holder.__gatewayWalCheckpointer || conn.pragma("journal_mode", { simple: true }) !== "wal") return;
  const { intervalMs, restartFrames, holdAtMostMs } = Object.assign({}, DEFAULTS, options);
  let worker: Worker;
  try {
    const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: path.resolve(file), driver } });
  } catch (err) {
    // SQLite's own checkpoints stay on: slower at the tail, never wrong.
    log.error({ error: (err as Error).message }, "WAL checkpointer not started");
    return;
  }
  worker.unref();
  conn.pragma("wal_autocheckpoint = 0");
  // After a restart the WAL file is cut back to this size instead of keeping its largest.
  conn.pragma(`journal_size_limit = ${restartFrames * 4096 * 2}`);
  let timer: NodeJS.Timeout | undefined;
  const state: Checkpointer = {
    held: null,
    stop: async () => {
      // Hand checkpoints back to SQLite's own, at commit time.
      holder.__gatewayWalCheckpointer = undefined;
      clearTimeout(timer);
      releaseWrites();
      if (conn.open) conn.pragma("wal_autocheckpoint = 1000");
      await worker.terminate();
    },
  };
  holder.__gatewayWalCheckpointer = state;

  let release: (() => void) | null = null;
  let failures = 0;
  const releaseWrites = () => {
    release?.();
    release = null;
    state.held = null;
  };
  const holdWrites = () => {
    const held = new Promise<void>((resolve) => (release = resolve));
    state.held = held;
    setTimeout(() => state.held === held && releaseWrites(), holdAtMostMs).unref();
  };
  const next = () => (timer = setTimeout(() => worker.postMessage("checkpoint"), intervalMs).unref());

  worker.on("message", (report: Report) => {
    if ("error" in report) {
      if (failures++ % 100 === 0) log.error({ error: report.error }, "WAL checkpoint failed");
    } else if (!release && report.frames >= restartFrames) {
      // Hold our writes and let the worker copy what was written during its last round.
      holdWrites();
      worker.postMessage("checkpoint");
      return;
    }
    releaseWrites();
    next();
  });
  worker.on("error", (err) => {
    log.error({ error: err.message }, "WAL checkpointer stopped");
    void state.stop();
  });
  next();
}

export async function stopWalCheckpointer(): Promise<void> {
  await holder.__gatewayWalCheckpointer?.stop();
}

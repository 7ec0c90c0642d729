// SQLite WAL checkpoints off the main thread. By default SQLite checkpoints inside the
// commit that crosses 1000 WAL pages: that commit then copies pages into the database file
// and fsyncs, which stalls the event loop for milliseconds — the relay's p99. Instead the
// main connection never checkpoints (wal_autocheckpoint = 0) and a worker thread with a
// connection of its own runs PASSIVE checkpoints every second (they neither wait for nor
// block writers), and a TRUNCATE one on shutdown.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { registerFlusher } from "@/lib/lifecycle";

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
const checkpoint = (mode) => { try { db.pragma("wal_checkpoint(" + mode + ")"); } catch (e) { /* busy: next time */ } };
const timer = setInterval(() => checkpoint("PASSIVE"), workerData.intervalMs);
parentPort.on("message", (m) => {
  if (m !== "stop") return;
  clearInterval(timer);
  checkpoint("TRUNCATE");
  db.close();
  parentPort.postMessage("stopped");
});
`;

const holder = globalThis as unknown as { __gatewayCheckpointer?: Worker };

export function startWalCheckpointer(conn: BetterSqlite3.Database, file: string, intervalMs = 1000): void {
  if (holder.__gatewayCheckpointer) return;
  conn.pragma("wal_autocheckpoint = 0");
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: path.resolve(file), driver, intervalMs } });
  worker.on("error", (err) => console.error("[db] WAL checkpointer failed:", err.message));
  worker.unref();
  holder.__gatewayCheckpointer = worker;
  registerFlusher(
    () =>
      new Promise<void>((resolve) => {
        const done = setTimeout(resolve, 3000);
        worker.once("message", () => {
          clearTimeout(done);
          resolve();
        });
        worker.postMessage("stop");
      }),
  );
}

// Starts the real built server (dist/server.mjs, `npm run build` first) on a free port with
// a fresh database: a new SQLite file, or a new PostgreSQL database at 127.0.0.1:5432 that
// is dropped afterwards. TEST_DB chooses (sqlite by default).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export type TestServer = {
  url: string;
  port: number;
  dbKind: "sqlite" | "postgresql";
  databaseUrl: string;
  dataDir: string;
  logs: () => string;
  /** sends a signal to the server process (the shutdown tests) */
  signal: (sig: NodeJS.Signals) => void;
  /** resolves with the exit code once the process has exited */
  exited: () => Promise<number | null>;
  // the server log's JSON lines (lib/logger), parsed; lines that are not JSON (Next's own output)
  // are left out
  logLines: () => LogLine[];
  stop: () => Promise<void>;
  // Sends `signal` to the server process and waits for it to exit (SIGKILL: a crash, nothing
  // flushed); the database and data directory stay.
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  // Starts the server again (after kill) on the same port, database and data directory, so
  // that it is the same node (its derived NODE_ID, docs/operations.md); resolves when ready.
  restart: () => Promise<void>;
};

export type LogLine = { level: string; time: string; area?: string; msg?: string; [field: string]: unknown };

// The line server.ts writes once it listens (lib/logger: {"area":"server",...,"msg":"ready on ..."}).
export const READY_LINE = '"msg":"ready on ';

export function parseLogLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of output.split("\n")) {
    if (!text.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      // a line cut by the end of the output read so far, or not ours
    }
  }
  return lines;
}

const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gw_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

// databaseUrl: join an existing database (a second node of a multi-node test); it is then
// neither created nor dropped by this server.
// startTimeoutMs: how long to wait for the ready line (30 s; longer for a file that can wait).
export async function startServer(
  opts: { env?: Record<string, string>; dbKind?: "sqlite" | "postgresql"; databaseUrl?: string; startTimeoutMs?: number } = {},
): Promise<TestServer> {
  // TEST_SERVER_DIR: run the server of another tree, such as the container image's files
  // (scripts/image-files.mjs; docs/deploy.md, "Checking the image without Docker")
  const serverDir = process.env.TEST_SERVER_DIR ?? process.cwd();
  if (!existsSync(path.join(serverDir, "dist/server.mjs"))) throw new Error(`${serverDir}/dist/server.mjs is missing: run \`npm run build\` first`);
  const dbKind = opts.dbKind ?? (process.env.TEST_DB === "postgresql" ? "postgresql" : "sqlite");
  const dataDir = mkdtempSync(path.join(tmpdir(), "gw-test-"));
  const pgdb = dbKind === "postgresql" && !opts.databaseUrl ? await createPgDatabase() : null;
  const databaseUrl = opts.databaseUrl ?? (pgdb ? pgdb.url : `file:${path.join(dataDir, "gateway.db")}`);
  const port = await freePort();
  let output = "";
  let child!: ChildProcess;
  const spawnChild = async (): Promise<void> => {
    child = spawn(process.execPath, ["dist/server.mjs"], {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        CRITICAL_RATE_LIMIT: "1000",
        ...opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const c = child;
    const from = output.length;
    c.stdout!.on("data", (d) => (output += d));
    c.stderr!.on("data", (d) => (output += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), opts.startTimeoutMs ?? 30_000);
      const check = () => {
        if (output.indexOf(READY_LINE, from) !== -1) {
          clearTimeout(timer);
          resolve();
        }
      };
      c.stdout!.on("data", check);
      c.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${output}`));
      });
    }).catch((err) => {
      c.kill("SIGKILL"); // a server that never became ready must not outlive the test run
      throw err;
    });
    c.removeAllListeners("exit");
  };
  await spawnChild();
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dbKind,
    databaseUrl,
    dataDir,
    logs: () => output,
    signal: (sig) => void child.kill(sig),
    exited: () =>
      child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once("exit", (code) => r(code))),
    logLines: () => parseLogLines(output),
    kill,
    restart: spawnChild,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await pgdb?.drop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// SQLite: the file is renamed away (the open connection would go on answering from it, so
// the readiness check compares the file at the path with the one opened). PostgreSQL: the
// test's own database stops accepting connections and its sessions are ended, so every query
// fails; nothing else on the shared server is touched.
export async function takeDatabaseAway(s: Pick<TestServer, "dbKind" | "databaseUrl">): Promise<() => Promise<void>> {
  if (s.dbKind === "sqlite") {
    const file = s.databaseUrl.replace(/^file:/, "");
    renameSync(file, `${file}.gone`);
    return async () => renameSync(`${file}.gone`, file);
  }
  const name = decodeURIComponent(new URL(s.databaseUrl).pathname.slice(1));
  const adminUrl = s.databaseUrl.replace(/\/[^/]*$/, "/postgres");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
  } finally {
    await admin.end();
  }
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
    } finally {
      await c.end();
    }
  };
}

// The program: one node:http server. Relay paths (/v1, /v1beta, /pg) go straight to the
// relay, which never enters Next's request pipeline (docs/relay.md), and so do the operator's
// /healthz, /readyz and /metrics (docs/operations.md); every other request goes to Next
// (console pages and /api routes).
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import next from "next";
import { ensureReady } from "@/lib/boot";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-address";
import { CLIENT_IP_HEADER, CLIENT_PROTO_HEADER } from "@/lib/http/request-info";
import { clientRequestId, newRequestId, REQUEST_ID_HEADER } from "@/lib/http/request-id";
import { callEnded, callStarted, callsSettled, exit, registerFlusher, registerShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { handleRelay } from "@/lib/relay/handler";
import { isRelayPath } from "@/lib/relay/routes";
import { handleTaskRelay, isTaskPath } from "@/lib/tasks/handler";
import { startTaskPoller, stopTaskPoller } from "@/lib/tasks/poller";
import { startHoldSweeper, stopHoldSweeper, sweepOwnHoldsAtStart } from "@/lib/billing/holds";
import { flushBillingSoon } from "@/lib/billing/store";
import { describeError } from "@/lib/errors";
import { consoleBodyReady } from "@/lib/http/body-limit";
import { startRollupJob, stopRollupJob } from "@/lib/rollups/job";
import { startRetentionJob, stopRetentionJob } from "@/lib/rollups/retention";
import { startChannelJobs, stopChannelJobs } from "@/lib/channel-admin/periodic-jobs";
import { startPlanJob, stopPlanJob } from "@/lib/plans/job";
import { startAuditRetentionJob, stopAuditRetentionJob } from "@/lib/audit-retention/job";
import { handleOps, initOps, opsEndpoint } from "@/lib/ops/endpoints";
import { relayDocumentJson } from "@/lib/openapi/relay";
import { APP_VERSION } from "@/lib/version";
import { startTracing, stopTracing, tracing } from "@/lib/tracing";

const log = logger("server");

// When whoever reads our output goes away (a supervisor or a test runner that died), a write
// fails with EPIPE; unhandled, that error is itself logged to the same broken pipe, and the
// process spins on it forever. Logs are lost then; the server goes on serving. (The log's own
// destination, lib/logger, ignores its write errors; this covers what Next and the libraries
// still print through process.stdout and process.stderr.)
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}

// Production starts from the config that `next build` resolved and wrote down
// (.next/required-server-files.json), as Next's own standalone server does, rather than
// compiling next.config.ts at every start: the container image then holds neither that file's
// imports nor Next's build toolchain (docs/deploy.md, "The image").
function applyBuiltNextConfig(dir: string): void {
  const file = path.join(dir, ".next", "required-server-files.json");
  if (!existsSync(file)) return;
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify((JSON.parse(readFileSync(file, "utf8")) as { config: unknown }).config);
}

async function main() {
  const config = env();
  const dev = config.NODE_ENV !== "production";
  await ensureReady();
  await initOps();
  // OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT asks for them (docs/tracing.md); the
  // spans still buffered are exported at the graceful shutdown, after the other flushes
  if (await startTracing(APP_VERSION)) registerFlusher(stopTracing);
  if (!dev) applyBuiltNextConfig(process.cwd());
  const app = next({ dev, hostname: "localhost", port: config.PORT, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    // The client's address and scheme are facts of the socket (or of the reverse proxy the
    // root declared); a client-sent copy of these headers is overwritten so that it cannot
    // spoof them.
    const { ip, proto } = clientAddress(
      req.socket.remoteAddress ?? "",
      Boolean((req.socket as { encrypted?: boolean }).encrypted),
      req.headers,
      config.TRUST_PROXY,
    );
    req.headers[CLIENT_IP_HEADER] = ip;
    req.headers[CLIENT_PROTO_HEADER] = proto;

    const url = req.url ?? "/";
    // health, readiness and metrics (docs/operations.md)
    const ops = opsEndpoint(url);
    if (ops) {
      handleOps(ops, req, res).catch((err) => {
        log.error({ endpoint: ops, error: describeError(err) }, "request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end();
      });
      return;
    }
    // the relay API's OpenAPI document: public, built once (docs/api-reference.md)
    if ((req.method === "GET" || req.method === "HEAD") && (url === "/v1/openapi.json" || url.startsWith("/v1/openapi.json?"))) {
      const text = relayDocumentJson(APP_VERSION);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-cache" });
      res.end(req.method === "HEAD" ? undefined : text);
      return;
    }
    // the task relay (Midjourney, Suno, videos; docs/tasks.md), before the chat relay
    // Each call is counted until its settlement and log row are queued: the shutdown waits
    // for them before it flushes (lib/lifecycle.ts).
    if (isTaskPath(url)) {
      callStarted();
      handleTaskRelay(req, res).then(callEnded, (err) => {
        callEnded();
        log.error({ to: "tasks", error: describeError(err) }, "request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    if (isRelayPath(url)) {
      callStarted();
      handleRelay(req, res).then(callEnded, (err) => {
        callEnded();
        log.error({ to: "relay", error: describeError(err) }, "request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    // A console body is counted while it arrives and refused past its limit before Next
    // reads any of it (docs/limits.md); a chunked one comes back through the callback.
    if (url.startsWith("/api/") && !consoleBodyReady(req, res, () => toConsole(req, res))) return;
    toConsole(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  function toConsole(req: http.IncomingMessage, res: http.ServerResponse): void {
    // The console reads balances: the quota movements still waiting or under way end first.
    const billing = flushBillingSoon();
    if (billing) billing.then(() => serveConsole(req, res));
    else serveConsole(req, res);
  }

  function serveConsole(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? "/";
    // the console request's id, as a relay call's (docs/operations.md, "Request ids"): the
    // client's sane X-Request-Id or a new one, in the answer's header and, for route(), in the
    // request's (an insane one the client sent is replaced)
    const requestId = clientRequestId(req.headers[REQUEST_ID_HEADER]) ?? newRequestId();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader("X-Request-Id", requestId);
    // tracing on: one span per console API request (docs/tracing.md)
    const t = tracing;
    if (t && url.startsWith("/api/")) t.console(req, res, requestId);
    // new-api's paths keep a trailing slash (POST /api/user/); Next's routes do not.
    if (url.startsWith("/api/")) {
      const q = url.indexOf("?");
      const path = q === -1 ? url : url.slice(0, q);
      if (path.length > 5 && path.endsWith("/")) req.url = path.slice(0, -1) + (q === -1 ? "" : url.slice(q));
    }
    handle(req, res).catch((err) => {
      log.error({ to: "next", error: describeError(err) }, "request failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("internal server error");
    });
  }
  startTaskPoller();
  // Reservations left open by this node's previous run are refunded before any new call
  // can make one; then the heartbeat and the periodic sweeps (lib/billing/holds.ts).
  await sweepOwnHoldsAtStart();
  startHoldSweeper();
  let closed: Promise<void> | undefined;
  registerShutdown({
    drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS,
    graceMs: config.SHUTDOWN_GRACE_MS,
    // server.close() also closes the idle keep-alive connections; it calls back once the
    // last open connection has ended
    stopAccepting: () => void (closed = new Promise<void>((resolve) => server.close(() => resolve()))),
    finished: async () => {
      await closed;
      await callsSettled();
    },
    cutCalls: () => server.closeAllConnections(),
    stopJobs: async () => {
      stopHoldSweeper();
      stopRollupJob();
      await Promise.all([stopTaskPoller(), stopRetentionJob(), stopChannelJobs(), stopPlanJob(), stopAuditRetentionJob()]);
    },
  });
  server.listen(config.PORT, config.HOSTNAME, () => {
    // tests/support/server.ts and bench/run.mjs wait for this line's "ready on"
    log.info({ port: config.PORT, mode: dev ? "development" : "production", database: config.databaseKind }, `ready on http://localhost:${config.PORT}`);
    // the hourly rollups of the data dashboard, every DataExportInterval minutes (docs/dashboard.md)
    startRollupJob();
    // log retention, when the option LogRetentionDays is set (docs/operations.md)
    startRetentionJob();
    // the periodic channel test and balance refresh, when CHANNEL_TEST_FREQUENCY or
    // CHANNEL_UPDATE_FREQUENCY is set (docs/operations.md)
    startChannelJobs();
    // the subscription plans' renewals and expiries (docs/plans.md, "Periodic job")
    startPlanJob();
    // the audit log's retention, AuditLogRetentionDays (docs/audit.md, "Retention")
    startAuditRetentionJob();
  });
}

main().catch((err) => {
  log.fatal({ error: describeError(err) }, "failed to start");
  exit(1);
});

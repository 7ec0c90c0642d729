// The program: one node:http server. Relay paths (/v1, /v1beta, /pg) go straight to the
// relay, which never enters Next's request pipeline (docs/relay.md), and so do the operator's
// /healthz, /readyz and /metrics (docs/operations.md); every other request goes to Next
// (console pages and /api routes).
import http from "node:http";
import next from "next";
import { ensureReady } from "@/lib/boot";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-address";
import { CLIENT_IP_HEADER, CLIENT_PROTO_HEADER } from "@/lib/http/request-info";
import { flushAll, registerShutdown } from "@/lib/lifecycle";
import { handleRelay } from "@/lib/relay/handler";
import { isRelayPath } from "@/lib/relay/routes";
import { handleTaskRelay, isTaskPath } from "@/lib/tasks/handler";
import { startTaskPoller, stopTaskPoller } from "@/lib/tasks/poller";
import { flushBillingSoon } from "@/lib/billing/store";
import { describeError } from "@/lib/errors";
import { consoleBodyReady } from "@/lib/http/body-limit";
import { startRollupJob, stopRollupJob } from "@/lib/rollups/job";
import { startRetentionJob, stopRetentionJob } from "@/lib/rollups/retention";
import { handleOps, initOps, opsEndpoint } from "@/lib/ops/endpoints";
import { relayDocumentJson } from "@/lib/openapi/relay";
import { APP_VERSION } from "@/lib/version";

// When whoever reads our output goes away (a supervisor or a test runner that died), a write
// fails with EPIPE; unhandled, that error is itself logged to the same broken pipe, and the
// process spins on it forever. Logs are lost then; the server goes on serving.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}

async function main() {
  const config = env();
  const dev = config.NODE_ENV !== "production";
  await ensureReady();
  await initOps();
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
        console.error(`[${ops}] request failed:`, describeError(err));
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
    if (isTaskPath(url)) {
      handleTaskRelay(req, res).catch((err) => {
        console.error("[tasks] request failed:", describeError(err));
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    if (isRelayPath(url)) {
      handleRelay(req, res).catch((err) => {
        console.error("[relay] request failed:", describeError(err));
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
    // new-api's paths keep a trailing slash (POST /api/user/); Next's routes do not.
    if (url.startsWith("/api/")) {
      const q = url.indexOf("?");
      const path = q === -1 ? url : url.slice(0, q);
      if (path.length > 5 && path.endsWith("/")) req.url = path.slice(0, -1) + (q === -1 ? "" : url.slice(q));
    }
    handle(req, res).catch((err) => {
      console.error("[server] request failed:", describeError(err));
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("internal server error");
    });
  }
  startTaskPoller();
  registerShutdown(async () => {
    stopRollupJob();
    await Promise.all([stopTaskPoller(), stopRetentionJob()]);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await flushAll();
  });
  server.listen(config.PORT, config.HOSTNAME, () => {
    console.log(`[server] ready on http://localhost:${config.PORT} (${dev ? "development" : "production"}, ${config.databaseKind})`);
    // the hourly rollups of the data dashboard, every DataExportInterval minutes (docs/dashboard.md)
    startRollupJob();
    // log retention, when the option LogRetentionDays is set (docs/operations.md)
    startRetentionJob();
  });
}

main().catch((err) => {
  console.error("[server] failed to start:", describeError(err));
  process.exit(1);
});

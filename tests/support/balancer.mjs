// A small round-robin reverse proxy in front of several gateway nodes, for the three-node
// test (tests/integration/three-nodes.test.ts) and the cluster bench (bench/cluster.mjs).
// Plain JavaScript (types in balancer.d.mts) so that the bench runs it without a build.
//
// The retry rule (docs/operations.md, "Several nodes"): a request is sent again, to the next
// node, only when the chosen node gave no response byte at all: the connection was refused,
// reset or closed before the response's status line. Nothing else is retried: once a node
// has answered a status line, the answer (an error included) goes to the client as it is,
// and a connection that breaks in the middle of a response breaks the client's too. The
// request body is held in memory (a relay call's body is small and bounded by the gateway)
// so that it can be sent again; the response body is piped through as it comes, so a
// stream (SSE) reaches the client event by event, never buffered.
//
// A node that refused a connection is skipped for `downMs` (unless every node is down), so a
// dead node costs one failed connect per `downMs`, not one per request.
import http from "node:http";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

/**
 * @param {{ targets: { host?: string; port: number }[]; port?: number; host?: string; downMs?: number }} opts
 */
export async function startBalancer(opts) {
  const targets = opts.targets.map((t) => ({ host: t.host ?? "127.0.0.1", port: t.port, downUntil: 0, inFlight: 0 }));
  const downMs = opts.downMs ?? 1_000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const stats = { requests: 0, retried: 0, noNode: 0, brokenAfterResponse: 0, perNode: targets.map(() => 0) };
  let next = 0;

  // The order in which to try nodes for one request: round-robin start, live nodes first.
  const order = () => {
    const start = next++ % targets.length;
    const all = targets.map((_, i) => (start + i) % targets.length);
    const now = Date.now();
    return [...all.filter((i) => targets[i].downUntil <= now), ...all.filter((i) => targets[i].downUntil > now)];
  };

  const headersFor = (req) => {
    const h = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k)) h[k] = v;
    return h;
  };

  // One attempt: resolves "sent" once the node's response started flowing to the client, or
  // "retry" when the node gave no response byte (connection refused, reset or closed first).
  const attempt = (i, req, res, body) =>
    new Promise((resolve) => {
      const t = targets[i];
      t.inFlight++;
      let responded = false;
      let settled = false;
      const done = (v) => {
        if (!settled) {
          settled = true;
          resolve(v);
        }
      };
      const up = http.request({ host: t.host, port: t.port, method: req.method, path: req.url, headers: headersFor(req), agent });
      up.on("response", (ur) => {
        responded = true;
        stats.perNode[i]++;
        const h = {};
        for (const [k, v] of Object.entries(ur.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) h[k] = v;
        res.writeHead(ur.statusCode ?? 502, h);
        res.flushHeaders();
        ur.on("data", (chunk) => res.write(chunk));
        ur.on("end", () => {
          t.inFlight--;
          res.end();
          done("sent");
        });
        ur.on("error", () => {});
        ur.on("aborted", () => {});
        ur.on("close", () => {
          if (!ur.complete) {
            // the node died in the middle of its answer: the client's connection breaks too
            // (unless the client left first, and the balancer cut the node's answer itself)
            t.inFlight--;
            if (!res.destroyed) stats.brokenAfterResponse++;
            res.destroy();
            done("sent");
          }
        });
      });
      up.on("error", (err) => {
        if (responded) return; // handled by the response's close
        t.inFlight--;
        if (err && (err.code === "ECONNREFUSED" || err.code === "EHOSTUNREACH")) t.downUntil = Date.now() + downMs;
        done("retry");
      });
      // the client left: stop the upstream call
      res.on("close", () => {
        if (!res.writableFinished) up.destroy();
      });
      up.end(body);
    });

  const server = http.createServer(async (req, res) => {
    stats.requests++;
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    let tries = 0;
    for (const i of order()) {
      if (res.destroyed) return;
      if (tries++ > 0) stats.retried++;
      if ((await attempt(i, req, res, body)) === "sent") return;
    }
    stats.noNode++;
    if (!res.headersSent) {
      res.writeHead(502, { "content-type": "application/json", "x-balancer": "no-node" });
      res.end(JSON.stringify({ error: { message: "balancer: no node answered", type: "balancer_error" } }));
    } else res.destroy();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve);
  });
  const port = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    stats,
    inFlight: (i) => targets[i].inFlight,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}

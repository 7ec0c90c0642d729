// The floor of the relay benchmark: a node:http server that forwards each POST to the mock
// upstream on a keep-alive agent and sends the answer back, and does nothing else (no
// authentication, no parsing, no billing, no logs). What it adds to a call is what two
// node:http hops cost on this machine, the least any Node gateway can add.
// Usage: UPSTREAM_PORT=<mock port> PORT=0 node bench/bare-proxy.mjs
// It prints "bare-proxy listening on <port>" once ready.
import http from "node:http";

const upstreamPort = Number(process.env.UPSTREAM_PORT);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function collect(stream, done) {
  const chunks = [];
  stream.on("data", (c) => chunks.push(c));
  stream.on("end", () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

const server = http.createServer((req, res) => {
  collect(req, (body) => {
    const headers = { "content-type": "application/json", "content-length": body.length, authorization: "Bearer sk-mock-upstream" };
    const up = http.request({ host: "127.0.0.1", port: upstreamPort, path: req.url, method: "POST", agent, headers }, (answer) => {
      const type = answer.headers["content-type"] ?? "application/json";
      if (type.includes("text/event-stream")) {
        res.writeHead(answer.statusCode, { "content-type": type, "cache-control": "no-cache" });
        answer.pipe(res);
        return;
      }
      collect(answer, (out) => {
        res.writeHead(answer.statusCode, { "content-type": type, "content-length": out.length });
        res.end(out);
      });
    });
    up.on("error", () => {
      res.writeHead(502).end();
    });
    up.end(body);
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`bare-proxy listening on ${server.address().port}`));

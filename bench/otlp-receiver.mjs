// A local OTLP/HTTP receiver for `npm run bench -- --tracing` (docs/tracing.md, "Cost"): it
// accepts POST /v1/traces (protobuf or JSON), counts the requests and bytes, and answers 200
// with an empty body, as a collector that keeps up would. It decodes nothing.
// Usage: PORT=0 node bench/otlp-receiver.mjs; prints "otlp-receiver listening on <port>", and
// its counts when stopped.
import http from "node:http";

let requests = 0;
let bytes = 0;
const server = http.createServer((req, res) => {
  let size = 0;
  req.on("data", (c) => (size += c.length));
  req.on("end", () => {
    if (req.method !== "POST" || req.url !== "/v1/traces") {
      res.writeHead(404).end();
      return;
    }
    requests++;
    bytes += size;
    res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/x-protobuf", "content-length": 0 }).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`otlp-receiver listening on ${server.address().port}`));
for (const sig of ["SIGTERM", "SIGINT"])
  process.on(sig, () => {
    console.log(`otlp-receiver: ${requests} export requests, ${bytes} bytes`);
    process.exit(0);
  });

// The CPU a relay call's spans cost with tracing on (docs/tracing.md, "Cost"), in process and
// free of the machine's load: lib/tracing started against a local OTLP/HTTP receiver that
// drops what it gets (protobuf, the default protocol), then N calls' worth of span work as
// lib/relay/handler.ts does it (the SERVER span, its request and user, one CLIENT attempt,
// the outcome, the end), the batch processor's exports included (it runs on the same thread).
//   npx tsx --tsconfig tsconfig.server.json bench/tracing-cost.mts --n=20000
// Prints the CPU per call in µs, and the same loop with tracing off (the `if (t)` alone).
import http from "node:http";
import type { IncomingMessage } from "node:http";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const N = Math.max(1000, arg("n", 20_000));

let exports = 0;
let bytes = 0;
const receiver = http.createServer((req, res) => {
  req.on("data", (c: Buffer) => (bytes += c.length));
  req.on("end", () => {
    exports++;
    res.writeHead(200, { "content-length": 0 }).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
process.env.OTEL_TRACES_SAMPLER = "always_on";
process.env.OTEL_BSP_SCHEDULE_DELAY = "200";
// room for the spans the loop makes between two exports (a warning says if any were dropped)
process.env.OTEL_BSP_MAX_QUEUE_SIZE = "8192";
process.env.LOG_LEVEL = "warn";

const lib = await import("@/lib/tracing");
const req = {
  method: "POST",
  url: "/v1/chat/completions",
  headers: { "content-type": "application/json", authorization: "Bearer sk-x" },
} as unknown as IncomingMessage;

function call(t: typeof lib.tracing, i: number): void {
  if (!t) return;
  const s = t.relay(req, `0190c0de-0000-7000-8000-${String(i).padStart(12, "0")}`);
  s.request("chat", "gpt-bench", 16, undefined, false);
  s.user(2);
  const a = s.attempt(1, "openai", "gpt-bench");
  a.end(200, undefined);
  s.outcome("gpt-bench", 1, "openai", 21, 9, 0, ["stop"], "gpt-bench", undefined);
  s.end(200);
}

// CPU µs per call; with tracing on, from its start to its stop (which exports every span left)
async function run(on: boolean): Promise<number> {
  const before = process.cpuUsage();
  if (on) await lib.startTracing("bench");
  const t = lib.tracing;
  for (let i = 0; i < N; i++) {
    call(t, i);
    // let the batch processor export as it would between calls (the pause costs no CPU)
    if (i % 256 === 255) await new Promise((r) => setTimeout(r, 10));
  }
  if (on) await lib.stopTracing();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / N;
}

await run(false); // warm-up
const off = await run(false);
await run(true); // warm-up
exports = 0;
bytes = 0;
const on = await run(true);
receiver.close();
console.log(`calls: ${N}`);
console.log(`tracing off: ${off.toFixed(3)} µs of CPU per call (the loop and its pauses: the null check itself is below what this measures)`);
console.log(`tracing on:  ${on.toFixed(1)} µs of CPU per call (2 spans, attributes, batch export as protobuf)`);
console.log(`exported: ${exports} requests, ${(bytes / N).toFixed(0)} bytes per call`);

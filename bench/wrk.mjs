// wrk helpers for the relay benchmark: the Lua script that makes wrk send a POST with a
// JSON body and headers, and the parser of wrk's text report (run with --latency).
//
// A report looks like this (wrk 4.1):
//   Running 10s test @ http://127.0.0.1:3000/v1/chat/completions
//     1 threads and 1 connections
//     Thread Stats   Avg      Stdev     Max   +/- Stdev
//       Latency   312.40us   80.12us   4.23ms   93.00%
//       Req/Sec     3.15k   160.00     3.40k    70.00%
//     Latency Distribution
//        50%  298.00us
//        75%  320.00us
//        90%  350.00us
//        99%  640.00us
//     31520 requests in 10.00s, 12.40MB read
//     Socket errors: connect 0, read 0, write 0, timeout 0
//     Non-2xx or 3xx responses: 3
//   Requests/sec:   3151.80
//   Transfer/sec:      1.24MB

const UNIT_US = { us: 1, ms: 1_000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000 };

// "298.00us" | "4.23ms" | "1.02s" | "1.50m" -> microseconds.
export function parseDuration(text) {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(String(text).trim());
  if (!m) throw new Error(`not a wrk duration: ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_US[m[2]];
}

// "3.15k" | "160.00" | "1.2M" -> number.
function parseMetric(text) {
  const m = /^([\d.]+)([kMG]?)$/.exec(String(text).trim());
  if (!m) throw new Error(`not a wrk number: ${JSON.stringify(text)}`);
  return Number(m[1]) * { "": 1, k: 1e3, M: 1e6, G: 1e9 }[m[2]];
}

// Parses a wrk --latency report. Latencies are in microseconds. Throws when the report
// lacks the figures we rely on (so that a broken run never yields a number).
export function parseWrk(text) {
  const out = {
    threads: null,
    connections: null,
    requests: null,
    durationSeconds: null,
    requestsPerSec: null,
    latencyUs: { avg: null, stdev: null, max: null, p50: null, p75: null, p90: null, p99: null },
    socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx3xx: 0,
  };
  const tc = /(\d+) threads and (\d+) connections/.exec(text);
  if (tc) {
    out.threads = Number(tc[1]);
    out.connections = Number(tc[2]);
  }
  const lat = /^[ \t]*Latency[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+\S+%[ \t]*$/m.exec(text);
  if (lat) {
    out.latencyUs.avg = parseDuration(lat[1]);
    out.latencyUs.stdev = parseDuration(lat[2]);
    out.latencyUs.max = parseDuration(lat[3]);
  }
  const dist = /Latency Distribution[ \t]*\n((?:[ \t]*\d+(?:\.\d+)?%[ \t]+\S+[ \t]*(?:\n|$))+)/.exec(text);
  if (dist) {
    for (const line of dist[1].split("\n")) {
      const p = /^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s*$/.exec(line);
      if (p) out.latencyUs[`p${p[1]}`] = parseDuration(p[2]);
    }
  }
  const done = /(\d+) requests in ([\d.]+(?:us|ms|s|m|h)),/.exec(text);
  if (done) {
    out.requests = Number(done[1]);
    out.durationSeconds = parseDuration(done[2]) / 1e6;
  }
  const rps = /^Requests\/sec:[ \t]+([\d.]+)[ \t]*$/m.exec(text);
  if (rps) out.requestsPerSec = Number(rps[1]);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  if (sock) out.socketErrors = { connect: Number(sock[1]), read: Number(sock[2]), write: Number(sock[3]), timeout: Number(sock[4]) };
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (bad) out.non2xx3xx = Number(bad[1]);

  const missing = [];
  if (out.requests === null) missing.push("request count");
  if (out.requestsPerSec === null) missing.push("Requests/sec");
  if (out.latencyUs.p50 === null) missing.push("p50 (run wrk with --latency)");
  if (out.latencyUs.p99 === null) missing.push("p99 (run wrk with --latency)");
  if (missing.length) throw new Error(`wrk report without ${missing.join(", ")}:\n${text}`);
  return out;
}

// Req/Sec per thread is informative only; kept out of parseWrk's contract but exported for
// completeness of the parser tests.
export function parseThreadRps(text) {
  const m = /^[ \t]*Req\/Sec[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+\S+%[ \t]*$/m.exec(text);
  return m ? { avg: parseMetric(m[1]), stdev: parseMetric(m[2]), max: parseMetric(m[3]) } : null;
}

const luaString = (s) => `"${String(s).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;

// A wrk Lua script sending one fixed POST request with the given headers and JSON body.
export function postScript(body, headers) {
  const lines = [`wrk.method = "POST"`, `wrk.body = ${luaString(typeof body === "string" ? body : JSON.stringify(body))}`];
  for (const [k, v] of Object.entries({ "Content-Type": "application/json", ...headers })) {
    lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  }
  return lines.join("\n") + "\n";
}

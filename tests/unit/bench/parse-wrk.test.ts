// The wrk report parser of the relay benchmark (bench/wrk.mjs): the figures the bench prints
// come from it, so a report it cannot read must fail loudly rather than yield a number.
import { describe, expect, it } from "vitest";
import { parseDuration, parseThreadRps, parseWrk, postScript } from "@/bench/wrk.mjs";

// Captured from wrk 4.1.0 (Debian) against bench/mock-upstream.mjs on a busy 2-core machine.
const ONE_CONNECTION = `Running 2s test @ http://127.0.0.1:18081/v1/chat/completions
  1 threads and 1 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.86ms   11.37ms  71.45ms   91.19%
    Req/Sec    22.22k    12.71k   34.58k    70.00%
  Latency Distribution
     50%   27.00us
     75%  113.00us
     90%   11.54ms
     99%   56.39ms
  44176 requests in 2.01s, 19.08MB read
Requests/sec:  22019.52
Transfer/sec:      9.51MB
`;

const WITH_ERRORS = `Running 10s test @ http://127.0.0.1:8787/v1/chat/completions
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    75.20ms   20.01ms    1.02s    88.00%
    Req/Sec   425.10     60.30   610.00     71.00%
  Latency Distribution
     50%   71.33ms
     75%   80.10ms
     90%   95.00ms
     99%    1.01s
  8502 requests in 10.00s, 3.60MB read
  Socket errors: connect 0, read 3, write 0, timeout 12
  Non-2xx or 3xx responses: 7
Requests/sec:    850.17
Transfer/sec:    368.10KB
`;

describe("parseWrk", () => {
  it("reads requests/s, the count, and latency percentiles in microseconds", () => {
    const r = parseWrk(ONE_CONNECTION);
    expect(r.threads).toBe(1);
    expect(r.connections).toBe(1);
    expect(r.requests).toBe(44176);
    expect(r.durationSeconds).toBeCloseTo(2.01);
    expect(r.requestsPerSec).toBe(22019.52);
    expect(r.latencyUs.p50).toBe(27);
    expect(r.latencyUs.p75).toBe(113);
    expect(r.latencyUs.p90).toBeCloseTo(11540);
    expect(r.latencyUs.p99).toBeCloseTo(56390);
    expect(r.latencyUs.avg).toBeCloseTo(3860);
    expect(r.latencyUs.max).toBeCloseTo(71450);
    expect(r.non2xx3xx).toBe(0);
    expect(r.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 0 });
  });

  it("reads seconds, socket errors and non-2xx counts", () => {
    const r = parseWrk(WITH_ERRORS);
    expect(r.connections).toBe(64);
    expect(r.latencyUs.p99).toBeCloseTo(1_010_000);
    expect(r.latencyUs.max).toBeCloseTo(1_020_000);
    expect(r.requestsPerSec).toBe(850.17);
    expect(r.socketErrors).toEqual({ connect: 0, read: 3, write: 0, timeout: 12 });
    expect(r.non2xx3xx).toBe(7);
    expect(parseThreadRps(WITH_ERRORS)).toEqual({ avg: 425.1, stdev: 60.3, max: 610 });
    expect(parseThreadRps(ONE_CONNECTION)).toEqual({ avg: 22220, stdev: 12710, max: 34580 });
  });

  it("refuses a report without the latency distribution or the totals", () => {
    const noLatency = ONE_CONNECTION.replace(/  Latency Distribution[\s\S]*?(?=  44176)/, "");
    expect(() => parseWrk(noLatency)).toThrow(/p50/);
    expect(() => parseWrk("unable to connect to 127.0.0.1:9 Connection refused\n")).toThrow(/request count/);
  });

  it("converts every wrk time unit and rejects anything else", () => {
    expect(parseDuration("27.00us")).toBe(27);
    expect(parseDuration("1.50ms")).toBe(1500);
    expect(parseDuration("2.00s")).toBe(2_000_000);
    expect(parseDuration("1.00m")).toBe(60_000_000);
    expect(() => parseDuration("12")).toThrow();
    expect(() => parseDuration("-nan")).toThrow();
  });
});

describe("postScript", () => {
  it("escapes the body and headers into Lua strings", () => {
    const lua = postScript({ model: "m", messages: [{ role: "user", content: 'say "hi"\\n' }] }, { Authorization: "Bearer sk-1" });
    expect(lua).toContain('wrk.method = "POST"');
    expect(lua).toContain('wrk.headers["Authorization"] = "Bearer sk-1"');
    expect(lua).toContain('wrk.headers["Content-Type"] = "application/json"');
    expect(lua).toContain(String.raw`wrk.body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"say \\\"hi\\\"\\\\n\"}]}"`);
  });
});

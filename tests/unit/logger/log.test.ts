// The server log (lib/logger, docs/operations.md "Logs"): one JSON object per line with its
// level, time and area; credentials under any of the redacted names never reach a line.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushLog, logDestination, logger, logLevelOf } from "@/lib/logger";

const written = () => {
  const spy = vi.spyOn(logDestination(), "write").mockImplementation(() => true);
  return { spy, lines: () => spy.mock.calls.map((c) => String(c[0])) };
};

afterEach(() => vi.restoreAllMocks());

describe("lib/logger", () => {
  it("writes one JSON line per event, with level, time, pid, area and message", () => {
    const out = written();
    logger("relay").warn({ channelId: 7 }, "channel auto-disabled");
    const lines = out.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith("\n")).toBe(true);
    expect(lines[0].trimEnd().includes("\n")).toBe(false);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "warn", pid: process.pid, area: "relay", channelId: 7, msg: "channel auto-disabled" });
    expect(new Date(String(line.time)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("never writes a key, a password or an authorization header", () => {
    const out = written();
    const secrets = {
      key: "sk-channel-key-aaaaaaaaaaaaaaaa",
      password: "hunter2-password",
      headers: { authorization: "Bearer sk-token-bbbbbbbbbbbbbbbb", "x-api-key": "x-api-key-cccc", "x-goog-api-key": "goog-dddd" },
      channel: { id: 3, key: "sk-nested-eeeeeeeeeeeeee", api_key: "api-key-ffff" },
      req: { headers: { authorization: "Basic Zm9vOmJhcg==", cookie: "session=gggg" } },
      token: "tok-hhhh",
      secret: "whsec-iiii",
      "x-api-key": "top-jjjj",
    };
    logger("test").error(secrets, "something failed");
    const [text] = out.lines();
    for (const s of [
      "sk-channel-key",
      "hunter2",
      "sk-token",
      "x-api-key-cccc",
      "goog-dddd",
      "sk-nested",
      "api-key-ffff",
      "Zm9vOmJhcg",
      "gggg",
      "hhhh",
      "iiii",
      "jjjj",
    ]) {
      expect(text).not.toContain(s);
    }
    const line = JSON.parse(text) as { channel: { id: number; key: string }; headers: Record<string, string> };
    // the structure stays, only the values are replaced
    expect(line.channel).toEqual({ id: 3, key: "[redacted]", api_key: "[redacted]" });
    expect(line.headers.authorization).toBe("[redacted]");
  });

  it("takes its level from LOG_LEVEL, info by default", () => {
    expect(logLevelOf(undefined)).toBe("info");
    expect(logLevelOf("")).toBe("info");
    expect(logLevelOf(" DEBUG ")).toBe("debug");
    expect(logLevelOf("silent")).toBe("silent");
    expect(logLevelOf("verbose")).toBe("info");
    // at the default level (the tests set no LOG_LEVEL), debug lines are left out
    const out = written();
    logger("test").debug("not written");
    logger("test").info("written");
    expect(out.lines().map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["written"]);
    flushLog();
  });
});

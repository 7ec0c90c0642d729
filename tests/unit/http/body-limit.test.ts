import { describe, expect, it } from "vitest";
import { CHANNEL_MAX_BODY_BYTES, CONSOLE_MAX_BODY_BYTES, consoleBodyLimit } from "@/lib/http/body-limit";

describe("console body limit by path", () => {
  it("gives the channel route its larger limit, with or without a trailing slash or query", () => {
    expect(consoleBodyLimit("/api/channel")).toBe(CHANNEL_MAX_BODY_BYTES);
    expect(consoleBodyLimit("/api/channel/")).toBe(CHANNEL_MAX_BODY_BYTES);
    expect(consoleBodyLimit("/api/channel/?x=1")).toBe(CHANNEL_MAX_BODY_BYTES);
  });
  it("gives every other route the default", () => {
    for (const url of ["/api/user/login", "/api/setup", "/api/channel/test/1", "/api/channelx", "/api/"]) {
      expect(consoleBodyLimit(url)).toBe(CONSOLE_MAX_BODY_BYTES);
    }
  });
});

import { describe, expect, it } from "vitest";
import { classifyResponse, expiredLoginUrl, safeReturnTo } from "@/lib/client/errors";

describe("classifyResponse", () => {
  it("passes a successful envelope", () => {
    expect(classifyResponse(200, false, { success: true, message: "" })).toBeNull();
  });
  it("maps the fixed statuses to the catalogue", () => {
    expect(classifyResponse(401, false, { success: false, message: "x" })).toEqual({ kind: "expired" });
    expect(classifyResponse(429, false, null)).toEqual({ kind: "catalogue", key: "tooManyRequests" });
    expect(classifyResponse(403, true, null)).toEqual({ kind: "catalogue", key: "browserCheck" });
    // every other 403 shows the catalogue's sentence, not the server's (docs/product-rules.md)
    expect(classifyResponse(403, false, { success: false, message: "denied" })).toEqual({ kind: "catalogue", key: "forbidden" });
    expect(classifyResponse(403, false, null)).toEqual({ kind: "catalogue", key: "forbidden" });
    expect(classifyResponse(403, false, { success: false, message: "" })).toEqual({ kind: "catalogue", key: "forbidden" });
    expect(classifyResponse(403, true, { success: false, message: "denied" })).toEqual({ kind: "catalogue", key: "browserCheck" });
    expect(classifyResponse(500, false, { success: false, message: "boom" })).toEqual({ kind: "catalogue", key: "internalError" });
    expect(classifyResponse(405, false, null)).toEqual({ kind: "catalogue", key: "demoOnly" });
  });
  it("shows the server's message for success:false and other statuses", () => {
    expect(classifyResponse(200, false, { success: false, message: "用户名已存在" })).toEqual({ kind: "message", text: "用户名已存在" });
    expect(classifyResponse(413, false, { success: false, message: "too large" })).toEqual({ kind: "message", text: "too large" });
  });
  it("falls back to a generic failure when there is no message", () => {
    expect(classifyResponse(200, false, { success: false, message: "" })).toEqual({ kind: "catalogue", key: "unknown" });
    expect(classifyResponse(404, false, null)).toEqual({ kind: "catalogue", key: "unknown" });
  });
});

describe("login redirects", () => {
  it("builds the expired login URL with the current path", () => {
    expect(expiredLoginUrl("/app/me?tab=1")).toBe("/login?expired=true&returnTo=%2Fapp%2Fme%3Ftab%3D1");
  });
  it("accepts only same-site paths as returnTo", () => {
    expect(safeReturnTo("/admin/users?p=2")).toBe("/admin/users?p=2");
    expect(safeReturnTo(null)).toBe("/app/tokens");
    expect(safeReturnTo("")).toBe("/app/tokens");
    expect(safeReturnTo("//evil.example/x")).toBe("/app/tokens");
    expect(safeReturnTo("/\\evil.example")).toBe("/app/tokens");
    expect(safeReturnTo("https://evil.example/")).toBe("/app/tokens");
    expect(safeReturnTo("app/me")).toBe("/app/tokens");
  });
  it("resolves returnTo against the site's origin as the browser does, and keeps only that origin", () => {
    const origin = "https://gw.example";
    const away = [
      "/\t/evil.example", // what the query value /%09/evil.example decodes to: the tab is dropped
      "/\n/evil.example",
      "/\r\n/evil.example/x",
      "//evil.example",
      "/\\evil.example",
      "/\t\\evil.example",
      "https://evil.example",
      "https://evil.example/app",
      "javascript:alert(1)",
      "/.//evil.example",
      "/x/..//evil.example",
      "\t//evil.example",
    ];
    for (const value of away) expect(safeReturnTo(value, "/app/tokens", origin), JSON.stringify(value)).toBe("/app/tokens");
    expect(safeReturnTo("/%09/evil.example", "/app/tokens", origin)).toBe("/%09/evil.example");
    expect(safeReturnTo("/app/me", "/app/tokens", origin)).toBe("/app/me");
    expect(safeReturnTo("/admin/users?p=2#top", "/app/tokens", origin)).toBe("/admin/users?p=2#top");
    expect(safeReturnTo("/app/../admin/logs?type=2", "/app/tokens", origin)).toBe("/admin/logs?type=2");
    // what the login page receives for ?returnTo=%2F%2509%2Fevil.example and ?returnTo=/%09/evil.example
    expect(safeReturnTo(new URLSearchParams("returnTo=/%09/evil.example").get("returnTo"), "/app/tokens", origin)).toBe("/app/tokens");
  });
});

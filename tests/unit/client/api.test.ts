import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, ApiError } from "@/lib/client/api";
import { subscribeToasts, type Toast } from "@/lib/client/toast";

// A minimal browser: localStorage, location and fetch.
function browser(user: unknown) {
  const store = new Map<string, string>();
  if (user) store.set("user", JSON.stringify(user));
  const location = { pathname: "/app/me", search: "?x=1", assign: vi.fn() };
  vi.stubGlobal("window", {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    },
    location,
    setTimeout: () => 0,
  });
  return { store, location };
}

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

let toasts: Toast[] = [];
let unsubscribe: () => void;
beforeEach(() => {
  unsubscribe = subscribeToasts((t) => (toasts = t));
});
afterEach(() => {
  unsubscribe();
  vi.unstubAllGlobals();
});

describe("api helper", () => {
  it("sends New-Api-User with the stored user's id and returns the envelope", async () => {
    browser({ id: 42, username: "u", display_name: "", role: 1, group: "default" });
    const fetch = respond(200, { success: true, message: "", data: { ok: 1 } });
    const r = await api.post<{ ok: number }>("/api/x", { a: 1 });
    expect(r.data.ok).toBe(1);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)["New-Api-User"]).toBe("42");
    expect(init.body).toBe('{"a":1}');
  });

  it("omits the header when nobody is stored", async () => {
    browser(null);
    const fetch = respond(200, { success: true, message: "", data: null });
    await api.get("/api/status");
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect("New-Api-User" in (init.headers as Record<string, string>)).toBe(false);
  });

  it("toasts success:false as 'Error: message' and rejects", async () => {
    browser({ id: 1 });
    respond(200, { success: false, message: "用户名已存在" });
    await expect(api.post("/api/user/")).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "errors.prefixed", values: { message: "用户名已存在" } });
  });

  it("on 401 forgets the user and goes to the expired login with returnTo", async () => {
    const { store, location } = browser({ id: 7 });
    respond(401, { success: false, message: "not logged in" });
    await expect(api.get("/api/user/self", { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(store.has("user")).toBe(false);
    expect(location.assign).toHaveBeenCalledWith("/login?expired=true&returnTo=%2Fapp%2Fme%3Fx%3D1");
  });

  it("uses the catalogue for 403 with a browser challenge", async () => {
    browser({ id: 1 });
    respond(403, {}, { "cf-mitigated": "challenge" });
    await expect(api.get("/api/x")).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "errors.browserCheck" });
  });

  it("shows the spec's sentence for every other 403, whatever the server's reason", async () => {
    browser({ id: 1 });
    respond(403, { success: false, message: "Only the root user may change this setting" });
    await expect(api.put("/api/option/", { key: "SMTPServer", value: "x" })).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "errors.forbidden" });
    respond(403, {});
    await expect(api.get("/api/x")).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "errors.forbidden" });
  });

  it("shows the caller's failure text for an answer without a message, the server's message otherwise", async () => {
    browser({ id: 1 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>bad gateway</html>", { status: 502 })),
    );
    await expect(api.post("/api/user/check_in", {}, { failed: "me.checkIn.failed" })).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "me.checkIn.failed" });
    respond(200, { success: false, message: "今日已签到" });
    await expect(api.post("/api/user/check_in", {}, { failed: "me.checkIn.failed" })).rejects.toBeInstanceOf(ApiError);
    expect(toasts.at(-1)?.content).toEqual({ key: "errors.prefixed", values: { message: "今日已签到" } });
  });
});

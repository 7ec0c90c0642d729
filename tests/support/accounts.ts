// Account fixtures for integration tests: first-run setup, and users created by the root.
import type { Locale } from "@/lib/i18n/locale";
import { ApiClient } from "./client";
import type { TestServer } from "./server";

export const ROOT_PASSWORD = "root-pass-123";

// The root turns on fetch_setting.allow_private_ip unless allowPrivateIp is false: the mock
// upstreams of the tests listen on 127.0.0.1, which the outbound policy refuses by default
// (docs/outbound.md).
export async function setupRoot(
  server: TestServer,
  username = "root",
  opts: { SelfUseModeEnabled?: boolean; DemoSiteEnabled?: boolean; allowPrivateIp?: boolean } = {},
) {
  const anon = new ApiClient(server.url);
  const r = await anon.post("/api/setup", {
    username,
    password: ROOT_PASSWORD,
    confirmPassword: ROOT_PASSWORD,
    SelfUseModeEnabled: opts.SelfUseModeEnabled ?? false,
    DemoSiteEnabled: opts.DemoSiteEnabled ?? false,
  });
  if (!r.success) throw new Error(`setup failed: ${r.message}`);
  const root = await loginAs(server, username, ROOT_PASSWORD);
  if (opts.allowPrivateIp !== false) await setOptions(root, { "fetch_setting.allow_private_ip": "true" });
  return root;
}

export async function loginAs(server: TestServer, username: string, password: string, locale: Locale = "en") {
  const c = new ApiClient(server.url, locale);
  const r = await c.login(username, password);
  if (!r.success) throw new Error(`login ${username} failed: ${r.message}`);
  return c;
}

// Creates a user through the admin API (as actor) and logs in as that user.
export async function makeUser(server: TestServer, actor: ApiClient, username: string, role: 1 | 10 = 1, password = "user-pass-1") {
  const r = await actor.post<{ id: number }>("/api/user/", { username, password, role });
  if (!r.success) throw new Error(`create ${username} failed: ${r.message}`);
  const client = await loginAs(server, username, password);
  return { id: r.data.id, client };
}

export async function setOptions(root: ApiClient, options: Record<string, string>) {
  for (const [key, value] of Object.entries(options)) {
    const r = await root.put("/api/option/", { key, value });
    if (!r.success) throw new Error(`option ${key}=${value} refused: ${r.message}`);
  }
}

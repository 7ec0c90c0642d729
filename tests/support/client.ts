// A small HTTP client for the console API that behaves like the browser: it keeps the
// session cookie and sends the New-Api-User header once logged in.
import type { Locale } from "@/lib/i18n/locale";

export type Envelope<T = unknown> = { success: boolean; message: string; data: T };

export class ApiClient {
  cookie = "";
  userId: number | null = null;
  constructor(
    readonly base: string,
    readonly locale: Locale = "en",
  ) {}

  async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { cookie: `NEXT_LOCALE=${this.locale}${this.cookie ? "; " + this.cookie : ""}`, ...headers };
    if (this.userId !== null && !("new-api-user" in headers)) h["new-api-user"] = String(this.userId);
    if (body !== undefined) h["content-type"] = "application/json";
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    const set = res.headers.getSetCookie?.() ?? [];
    for (const c of set) {
      const [pair] = c.split(";");
      if (pair.startsWith("session=")) this.cookie = pair.endsWith("=") ? "" : pair;
    }
    return res;
  }

  async call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Envelope<T> & { status: number }> {
    const res = await this.raw(method, path, body, headers);
    const json = (await res.json()) as Envelope<T>;
    return { ...json, status: res.status };
  }

  get<T = unknown>(path: string) {
    return this.call<T>("GET", path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.call<T>("POST", path, body ?? {});
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.call<T>("PUT", path, body ?? {});
  }
  del<T = unknown>(path: string) {
    return this.call<T>("DELETE", path);
  }

  async login(username: string, password: string) {
    const r = await this.post<{ id: number }>("/api/user/login", { username, password });
    if (r.success) this.userId = r.data.id;
    return r;
  }
}

// The client's error catalogue (docs/product-rules.md, "Errors the console shows"): what
// a failed console call means for the person in front of the browser. Pure: it returns
// what to do; lib/client/api.ts does it.
export type ErrorKey = "sessionExpired" | "tooManyRequests" | "browserCheck" | "forbidden" | "internalError" | "demoOnly" | "network" | "unknown";

export type Failure =
  // clear the local user and go to /login?expired=true&returnTo=<current path>
  | { kind: "expired" }
  // a fixed message of the catalogue (a key under "errors" in messages/*.json)
  | { kind: "catalogue"; key: ErrorKey }
  // the server's own message
  | { kind: "message"; text: string };

export type EnvelopeLike = { success?: boolean; message?: string } | null;

// The header a browser-challenge proxy (Cloudflare) sets on the 403 it answers with.
export const CHALLENGE_HEADER = "cf-mitigated";
export const isChallenge = (value: string | null | undefined) => value === "challenge";

// null: the call succeeded.
export function classifyResponse(status: number, challenged: boolean, body: EnvelopeLike): Failure | null {
  switch (status) {
    case 401:
      return { kind: "expired" };
    case 429:
      return { kind: "catalogue", key: "tooManyRequests" };
    case 403:
      // the catalogue's sentence, whatever the server said (docs/console-ui.md, "One place reports failures")
      return { kind: "catalogue", key: challenged ? "browserCheck" : "forbidden" };
    case 500:
      return { kind: "catalogue", key: "internalError" };
    case 405:
      return { kind: "catalogue", key: "demoOnly" };
  }
  if (status >= 200 && status < 300 && body && body.success) return null;
  if (body && typeof body.message === "string" && body.message) return { kind: "message", text: body.message };
  return { kind: "catalogue", key: "unknown" };
}

// Where a 401 sends the browser: the login page, told why, and told where to come back to.
export function expiredLoginUrl(currentPath: string): string {
  return `/login?expired=true&returnTo=${encodeURIComponent(currentPath)}`;
}

// Only a same-site path may be a returnTo target. The value is resolved with URL against the
// site's origin, exactly as the browser will read it (tabs and newlines dropped, "\\" read
// as "/"), and kept only when it stays on that origin; what is returned is the resolved
// path, query and fragment, never a value the browser could read as another host.
export function safeReturnTo(value: string | null | undefined, fallback = "/app/tokens", origin = siteOrigin()): string {
  if (!value || !value.startsWith("/")) return fallback;
  let target: URL;
  try {
    target = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (target.origin !== new URL(origin).origin) return fallback;
  const path = target.pathname + target.search + target.hash;
  // "/.//host" resolves to the path "//host", which the browser would take for another host
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}

// Server-side rendering has no window: any fixed origin serves, as only the path is kept.
function siteOrigin(): string {
  return typeof window !== "undefined" && window.location?.origin && window.location.origin !== "null" ? window.location.origin : "http://localhost";
}

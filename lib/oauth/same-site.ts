// The sign-ins that answer a GET with a session (GET /api/oauth/telegram/login and
// GET /api/oauth/wechat) refuse a request another site made the browser send (login CSRF,
// docs/oauth.md, "Cross-site requests"): when the browser says where the request comes from
// (Sec-Fetch-Site), only same-origin and none (typed or bookmarked) pass. A client without
// the header is not a browser and cannot be ridden that way.
import "server-only";
import { AppError } from "@/lib/errors";

export function refuseCrossSite(headers: Headers): void {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") throw new AppError("FORBIDDEN", "cross_site_refused");
}

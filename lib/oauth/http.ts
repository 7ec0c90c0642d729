// Calls to a provider, under the outbound policy (docs/outbound.md): no redirect is
// followed (they carry a client secret, a code or an access token), ten seconds at most, and
// any failure becomes one message that names the provider's step, never a secret.
import "server-only";
import { AppError } from "@/lib/errors";
import { outboundFetch, outboundRefusal, refusalMessageKey } from "@/lib/net/outbound";
import { readCappedText } from "@/lib/net/read-capped";

const MAX_BYTES = 256 * 1024;

export async function providerJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  failKey: "oauth_exchange_failed" | "oauth_userinfo_failed" | "oidc_config_failed" | "wechat_server_failed" | "turnstile_failed",
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await outboundFetch(url, {
      method: init.method,
      headers: { accept: "application/json", ...init.headers },
      body: init.body,
      maxRedirects: 0,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    const refusal = outboundRefusal(e);
    if (refusal) throw new AppError("RULE", refusalMessageKey(refusal.reason));
    throw new AppError("RULE", failKey);
  }
  let text: string;
  try {
    text = await readCappedText(res, MAX_BYTES);
  } catch {
    throw new AppError("RULE", failKey);
  }
  if (!res.ok) throw new AppError("RULE", failKey);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AppError("RULE", failKey);
}

export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : "");

// The client's address and scheme (docs/options.md, "Network and payment"; docs/limits.md):
// facts of the socket, unless the root says a reverse proxy stands in front
// (ReverseProxyEnabled) and which one (ReverseProxyProvider):
// - nginx: the last entry of X-Forwarded-For, the one nginx appended
//   ($proxy_add_x_forwarded_for) from its own socket; earlier entries are whatever the client
//   sent and are never believed;
// - cloudflare: CF-Connecting-IP, which Cloudflare sets and overwrites.
// With the option off no header is believed, whatever the client sends. The scheme follows
// X-Forwarded-Proto behind a proxy (the option, or TRUST_PROXY of the environment).
import "server-only";
import { isIP } from "node:net";
import { getBool, getOption } from "@/lib/options/store";

type Headers = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const plain = (ip: string) => ip.replace(/^::ffff:/, "");

export function proxiedAddress(headers: Headers, provider: string): string | null {
  let candidate: string;
  if (provider === "cloudflare") candidate = first(headers["cf-connecting-ip"]).trim();
  else {
    const all = (Array.isArray(headers["x-forwarded-for"]) ? headers["x-forwarded-for"].join(",") : (headers["x-forwarded-for"] ?? "")).split(",");
    candidate = (all[all.length - 1] ?? "").trim();
  }
  return isIP(candidate) ? plain(candidate) : null;
}

export function clientAddress(socketAddress: string, encrypted: boolean, headers: Headers, trustProxyEnv: boolean): { ip: string; proto: string } {
  let ip = plain(socketAddress);
  let proto = encrypted ? "https" : "http";
  const behindProxy = getBool("ReverseProxyEnabled");
  if (behindProxy) ip = proxiedAddress(headers, getOption("ReverseProxyProvider")) ?? ip;
  if (behindProxy || trustProxyEnv) {
    const fproto = first(headers["x-forwarded-proto"]).split(",")[0]?.trim();
    if (fproto === "https" || fproto === "http") proto = fproto;
  }
  return { ip, proto };
}

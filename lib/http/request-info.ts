// Facts about the client that server.ts establishes from the socket before Next sees the
// request; any copies of these headers that the client sent are removed there.
import "server-only";

export const CLIENT_IP_HEADER = "x-gateway-client-ip";
export const CLIENT_PROTO_HEADER = "x-gateway-client-proto";

export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) ?? "";
}

export function isHttps(headers: Headers): boolean {
  return headers.get(CLIENT_PROTO_HEADER) === "https";
}

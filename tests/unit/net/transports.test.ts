// Both relay transports and outboundFetch under the outbound policy (docs/outbound.md), in
// process against a local server on 127.0.0.1: refused for every loopback form while
// fetch_setting.allow_private_ip is off (kept-alive connections included), served while on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLOW_PRIVATE_IP_OPTION, outboundFetch, outboundRefusal } from "@/lib/net/outbound";
import { applyOption } from "@/lib/options/store";
import { httpTransport, undiciTransport, type Transport } from "@/lib/relay/transport";

let server: http.Server;
let port = 0;
let hits = 0;
let redirectTo = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === "/redirect") {
      res.writeHead(302, { location: redirectTo });
      return res.end();
    }
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  applyOption(ALLOW_PRIVATE_IP_OPTION, "false");
  await new Promise((r) => server.close(r));
});

const signal = new AbortController().signal as never;
const forms = () => [
  `http://127.0.0.1:${port}/`,
  `http://[::1]:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f.0.0.1:${port}/`,
  `http://localhost:${port}/`,
];

describe.each([
  ["undici", undiciTransport],
  ["node:http", httpTransport],
] as Array<[string, Transport]>)("%s transport", (_name, transport) => {
  it("serves loopback with the option on, and refuses every loopback form once it is off", async () => {
    applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
    const ok = await transport(`http://127.0.0.1:${port}/`, { headers: {}, body: "x", signal });
    expect(await ok.text()).toBe("ok"); // the connection is now kept alive
    applyOption(ALLOW_PRIVATE_IP_OPTION, "false");
    const before = hits;
    for (const url of forms()) {
      const err = await transport(url, { headers: {}, body: "x", signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(outboundRefusal(err)?.reason, url).toBe("loopback");
    }
    for (const url of ["http://0.0.0.0:1/", "http://169.254.169.254/", "http://[::ffff:a9fe:a9fe]/"]) {
      const err = await transport(url, { headers: {}, body: "x", signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(outboundRefusal(err), url).not.toBeNull();
    }
    expect(hits).toBe(before);
  });
});

describe("outboundFetch", () => {
  it("checks every redirect hop, and the scheme", async () => {
    applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
    const hop = `http://127.0.0.1:${port}/redirect`;
    redirectTo = `http://localhost:${port}/done`;
    expect(await (await outboundFetch(hop)).text()).toBe("ok");
    redirectTo = `http://0.0.0.0:${port}/`;
    await expect(outboundFetch(hop)).rejects.toMatchObject({ reason: "unspecified" });
    redirectTo = "http://[::ffff:169.254.169.254]/latest/meta-data/";
    await expect(outboundFetch(hop)).rejects.toMatchObject({ reason: "metadata" });
    redirectTo = "file:///etc/passwd";
    await expect(outboundFetch(hop)).rejects.toMatchObject({ reason: "bad_url" });
    redirectTo = hop;
    await expect(outboundFetch(hop)).rejects.toMatchObject({ reason: "too_many_redirects" });
    // maxRedirects 0 (calls carrying a channel key): the 3xx comes back, never followed
    expect((await outboundFetch(hop, { maxRedirects: 0 })).status).toBe(302);
    applyOption(ALLOW_PRIVATE_IP_OPTION, "false");
    await expect(outboundFetch(`http://localhost:${port}/`)).rejects.toMatchObject({ reason: "loopback" });
  });
});

// The Chinese providers' mock upstreams (tests/support/provider-wires/cn.ts) must refuse a wrong
// credential as the real provider would, or the providers test could not fail on an auth bug:
// each adapter's request with the wire's own key is answered, the same with a wrong key refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { forgetBaiduTokens } from "@/lib/relay/providers/baidu";
import { adapterFor } from "@/lib/relay/providers/registry";
import { RelayError, type ChannelView, type ChatRequest } from "@/lib/relay/types";
import { CN_WIRES } from "@/tests/support/provider-wires/cn";
import { serveWire, type WireServer } from "@/tests/support/provider-wires/serve";
import { WIRE_TEXT, type ProviderWire } from "@/tests/support/provider-wires/types";

applyOption("fetch_setting.allow_private_ip", "true");

const servers: WireServer[] = [];
async function serve(wire: ProviderWire): Promise<string> {
  const s = await serveWire((r, res) => wire.handle(r, res));
  servers.push(s);
  return s.url;
}
afterAll(async () => {
  for (const s of servers) await s.close();
});

// a wrong key of the same shape: each part changed
const wrong = (key: string) => key.replace(/[0-9a-f]/gi, (c) => (c === "0" ? "1" : "0"));

async function call(wire: ProviderWire, key: string, url: string): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
  const adapter = adapterFor(wire.type)!;
  const c = wire.channel(url);
  const ch: ChannelView = { id: 1, type: wire.type, base_url: c.base_url, key, other: c.other ?? "", upstreamModel: wire.model };
  const req: ChatRequest = { model: wire.model, messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], stream: false };
  let up;
  try {
    up = await adapter.chatRequest(req, ch);
  } catch (e) {
    if (e instanceof RelayError) return { ok: false, why: e.message };
    throw e;
  }
  const res = await fetch(up.url, { method: "POST", headers: up.headers, body: up.body as string });
  const text = await res.text();
  if (res.status !== 200) return { ok: false, why: adapter.parseError(res.status, text, ch).message };
  try {
    return { ok: true, text: adapter.parseChat(JSON.parse(text)).choices[0].text };
  } catch (e) {
    if (e instanceof RelayError) return { ok: false, why: e.message };
    throw e;
  }
}

describe("the Chinese providers' mocks check the credentials", () => {
  const urls = new Map<number, string>();
  beforeAll(async () => {
    for (const w of CN_WIRES) urls.set(w.type, await serve(w));
  });

  it.each(CN_WIRES.map((w) => [w.label, w] as const))("%s: answers its key, refuses another", async (_l, wire) => {
    forgetBaiduTokens();
    const url = urls.get(wire.type)!;
    const key = wire.channel(url).key;
    expect(await call(wire, key, url)).toEqual({ ok: true, text: WIRE_TEXT });
    const bad = await call(wire, wrong(key), url);
    expect(bad.ok).toBe(false);
    // the refusal is the provider's own words, without the key
    expect(JSON.stringify(bad)).not.toContain(wrong(key));
  });
});

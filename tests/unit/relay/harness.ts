// A small relay front for tests: a node:http server that parses the client's body in its
// ingress format and calls forward() once with a fixed channel pointed at a mock upstream.
// (The real front, with tokens, channel choice, retries, billing and logs, is lib/relay/handler.ts.)
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import { formats, parseGeminiEmbeddings, parseGeminiPath, type IngressName } from "@/lib/relay/formats";
import { locateMultipartModel } from "@/lib/relay/multipart";
import { forward, writeError, type ForwardOutcome, type PassthroughRequest } from "@/lib/relay/pipeline";
import type { PassthroughEndpoint } from "@/lib/relay/providers/types";
import type { Transport } from "@/lib/relay/transport";
import { RelayError, type ChannelView } from "@/lib/relay/types";
import { afterAll, beforeAll } from "vitest";
import { startMockUpstream, type MockKind, type MockUpstream } from "@/tests/support/mock-upstreams";
import { applyOption } from "@/lib/options/store";

// The mock upstreams listen on 127.0.0.1, which the outbound policy allows only with this
// option on (docs/outbound.md).
applyOption("fetch_setting.allow_private_ip", "true");

export const CHANNEL_TYPE_OF = { openai: 1, azure: 3, anthropic: 14, gemini: 24 } as const;

/** A channel for a mock: the upstream model is the client's with an "up-" prefix, to see the mapping. */
export function channelFor(mock: MockUpstream, extra?: Partial<ChannelView>): (model: string) => ChannelView {
  return (model) => ({
    id: 7,
    type: CHANNEL_TYPE_OF[mock.kind],
    base_url: mock.url,
    key: mock.key,
    other: mock.kind === "azure" ? "2024-10-21" : "",
    upstreamModel: "up-" + model,
    ...extra,
  });
}

export interface Relay {
  url: string;
  outcomes: ForwardOutcome[];
  setChannel(c: (model: string) => ChannelView): void;
  timeoutMs?: number;
  transport?: Transport;
  close(): Promise<void>;
}

const PASSTHROUGH = new Set<PassthroughEndpoint>([
  "completions",
  "embeddings",
  "responses",
  "images/generations",
  "audio/speech",
  "audio/transcriptions",
  "moderations",
  "rerank",
]);

export async function startRelay(channel: (model: string) => ChannelView): Promise<Relay> {
  const outcomes: ForwardOutcome[] = [];
  let ch = channel;
  const relay: Relay = { url: "", outcomes, setChannel: (c) => (ch = c), close: async () => {} };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = req.url ?? "/";
    const path = url.split("?")[0];
    const ac = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) ac.abort();
    });
    let ingress: IngressName = "openai-chat";
    try {
      if (path.startsWith("/v1beta/models/")) {
        ingress = "gemini";
        const g = parseGeminiPath(url);
        if (!g) throw new RelayError(404, "unknown path");
        const body: unknown = JSON.parse(raw.toString());
        const embed = g.action === "embedContent" || g.action === "batchEmbedContents";
        const request = embed
          ? parseGeminiEmbeddings(body, { model: g.model, single: g.action === "embedContent" })
          : formats.gemini.parse(body, { model: g.model, stream: g.stream });
        return done(
          await forward({ ingress, request, channel: ch(g.model), clientRes: res, signal: ac.signal, timeoutMs: relay.timeoutMs, transport: relay.transport }),
        );
      }
      const endpoint = path.slice("/v1/".length) as PassthroughEndpoint;
      if (path === "/v1/chat/completions" || path === "/v1/messages" || path === "/v1/responses") {
        ingress = path === "/v1/messages" ? "anthropic-messages" : path === "/v1/responses" ? "openai-responses" : "openai-chat";
        let body: unknown;
        try {
          body = JSON.parse(raw.toString());
        } catch {
          throw new RelayError(400, "the body is not valid JSON");
        }
        const request = formats[ingress].parse(body);
        return done(
          await forward({
            ingress,
            request,
            channel: ch(request.model),
            clientRes: res,
            signal: ac.signal,
            timeoutMs: relay.timeoutMs,
            transport: relay.transport,
          }),
        );
      }
      if (PASSTHROUGH.has(endpoint)) {
        const ct = String(req.headers["content-type"] ?? "");
        let p: PassthroughRequest;
        let model = "";
        if (ct.includes("json")) {
          const json = JSON.parse(raw.toString()) as Record<string, unknown>;
          model = String(json.model ?? "");
          p = { endpoint, json, contentType: "application/json" };
        } else {
          const at = locateMultipartModel(raw, ct);
          model = at.model;
          p = { endpoint, multipart: { body: raw, model: at }, contentType: ct };
        }
        return done(
          await forward({ ingress, request: p, channel: ch(model), clientRes: res, signal: ac.signal, timeoutMs: relay.timeoutMs, transport: relay.transport }),
        );
      }
      throw new RelayError(404, `unknown path ${path}`);
    } catch (e) {
      if (e instanceof RelayError) return writeError(ingress, res, e.toUpstreamError());
      throw e;
    }
    function done(o: ForwardOutcome) {
      outcomes.push(o);
      if (!o.ok && !o.firstByteSentToClient && o.upstreamError) writeError(ingress, res, o.upstreamError);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return relay;
}

/** Reads a whole SSE answer into its events (tests only). */
export async function sseEvents(res: Response): Promise<{ event?: string; data: string }[]> {
  const events: { event?: string; data: string }[] = [];
  const p = createParser({ onEvent: (e) => void events.push({ event: e.event, data: e.data }) });
  p.feed(await res.text());
  return events;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

// The fixture most relay tests share: mock upstreams of the given kinds and one relay in
// front of them, started before the file's tests and closed after. use(kind) points the
// relay at that mock with fresh behaviour and an empty request log.
export function relayOverMocks(kinds: readonly MockKind[]) {
  const mocks = {} as Record<MockKind, MockUpstream>;
  const fixture = {
    mocks,
    relay: undefined as unknown as Relay,
    use(kind: MockKind): MockUpstream {
      const m = mocks[kind];
      m.requests.length = 0;
      m.behavior = {};
      fixture.relay.setChannel(channelFor(m));
      fixture.relay.timeoutMs = undefined;
      return m;
    },
    last: () => fixture.relay.outcomes[fixture.relay.outcomes.length - 1],
  };
  beforeAll(async () => {
    for (const k of kinds) mocks[k] = await startMockUpstream(k);
    fixture.relay = await startRelay(channelFor(mocks[kinds[0]]));
  });
  afterAll(async () => {
    await fixture.relay?.close();
    for (const k of kinds) await mocks[k]?.close();
  });
  return fixture;
}

// One provider's wire as a test upstream: a real node:http handler speaking what the
// provider's API speaks today, and the channel that reaches it. tests/integration/providers.test.ts
// saves one channel per wire and calls it through the official openai SDK, streamed and not;
// the list must cover every channel type the editor offers (GET /api/channel/types).
import type http from "node:http";

export interface WireRequest {
  method: string;
  /** path and query */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** the body parsed as JSON, when it is JSON */
  json?: any;
}

/** The usage every wire reports (in its own shape): the log row must carry these counts, not an estimate. */
export const WIRE_USAGE = { prompt: 17, completion: 6 } as const;
/** The text every wire answers (streamed in pieces); the SDK must read it back whole. */
export const WIRE_TEXT = "Hello from the wire";

export interface ProviderWire {
  /** the channel type id */
  type: number;
  /** a label for the test's name */
  label: string;
  /** the model the client asks for (the channel serves it) */
  model: string;
  /**
   * What the wire serves: "chat" (the default) is tested with a chat and a streamed chat;
   * "embeddings" (a provider without chat, Jina) with an embeddings call through the SDK, whose
   * answer must report WIRE_USAGE.prompt input tokens.
   */
  kind?: "chat" | "embeddings";
  /** the channel's fields given the mock's address ("http://127.0.0.1:port"), besides name, type, models and group */
  channel(mockUrl: string): { key: string; base_url: string; other?: string; setting?: string };
  /**
   * Answers one request. `stream` tells whether the client asked for a stream, as the wire
   * says it (a body field, a path, a header); the handler must answer with WIRE_TEXT and
   * WIRE_USAGE in the wire's shape (a stream in the wire's own framing), and may answer any
   * other request the adapter makes first (an access token, for instance).
   */
  handle(req: WireRequest, res: http.ServerResponse): void | Promise<void>;
  /** checks on the requests the upstream received for one chat (its auth, its path); throw to fail */
  check?(requests: WireRequest[], stream: boolean): void;
}

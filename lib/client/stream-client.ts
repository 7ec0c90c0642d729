// A server-sent-events client that can POST a body (EventSource can only GET), used by the
// playground (docs/chat.md, "Stream client"). States: initializing (made, not started),
// connecting, open (a 2xx answer with a body arrived), closed. With autoReconnect (off by
// default) a stream that ends or breaks is opened again after reconnectDelay (3000 ms), with
// no cap on the retries, sending the last event id seen as Last-Event-ID. close() stops it
// for good. A refused request (4xx) is not retried: the same request would be refused again.
import { createParser } from "eventsource-parser";

export type StreamState = "initializing" | "connecting" | "open" | "closed";
export const RECONNECT_DELAY_MS = 3000;

export type StreamEvent = { type: string; data: string; id: string };
// An answer that is not a 2xx stream (its status and body), or a network failure.
export type StreamFailure = { status: number; body: string } | { status: 0; error: Error };

export type StreamOptions = {
  method?: string;
  headers?: Record<string, string>;
  payload?: string;
  credentials?: RequestCredentials;
  autoReconnect?: boolean;
  reconnectDelay?: number;
  // Sends Last-Event-ID on a reconnect (default true).
  useLastEventId?: boolean;
  fetch?: typeof fetch;
};

type Handlers = {
  message: (ev: StreamEvent) => void;
  open: (status: number) => void;
  error: (failure: StreamFailure) => void;
  state: (state: StreamState) => void;
  end: () => void;
};

export class StreamClient {
  state: StreamState = "initializing";
  lastEventId = "";
  private handlers: { [K in keyof Handlers]: Handlers[K][] } = { message: [], open: [], error: [], state: [], end: [] };
  private controller: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    readonly url: string,
    readonly options: StreamOptions = {},
  ) {}

  on<K extends keyof Handlers>(type: K, handler: Handlers[K]): this {
    this.handlers[type].push(handler);
    return this;
  }

  private emit<K extends keyof Handlers>(type: K, ...args: Parameters<Handlers[K]>) {
    for (const h of this.handlers[type]) (h as (...a: Parameters<Handlers[K]>) => void)(...args);
  }

  private setState(state: StreamState) {
    if (this.state === state) return;
    this.state = state;
    this.emit("state", state);
  }

  // Starts (or, after a close(), restarts) the stream; resolves when this attempt ends.
  async stream(): Promise<void> {
    this.stopped = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.attempt();
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.controller?.abort();
    this.controller = null;
    this.setState("closed");
  }

  private async attempt(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.setState("connecting");
    const headers: Record<string, string> = { accept: "text/event-stream", ...this.options.headers };
    if (this.lastEventId && this.options.useLastEventId !== false) headers["Last-Event-ID"] = this.lastEventId;
    let retry = true;
    try {
      const res = await (this.options.fetch ?? fetch)(this.url, {
        method: this.options.method ?? (this.options.payload === undefined ? "GET" : "POST"),
        headers,
        body: this.options.payload,
        credentials: this.options.credentials ?? "same-origin",
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        retry = res.status >= 500 || res.status === 0;
        const body = await res.text().catch(() => "");
        if (!controller.signal.aborted) this.emit("error", { status: res.status, body });
        return;
      }
      this.setState("open");
      this.emit("open", res.status);
      const parser = createParser({
        onEvent: (ev) => {
          if (ev.id !== undefined) this.lastEventId = ev.id;
          this.emit("message", { type: ev.event || "message", data: ev.data, id: ev.id ?? this.lastEventId });
        },
      });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || controller.signal.aborted) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      parser.feed(decoder.decode());
    } catch (err) {
      if (!controller.signal.aborted) this.emit("error", { status: 0, error: err instanceof Error ? err : new Error(String(err)) });
    } finally {
      if (this.controller === controller) this.controller = null;
      if (!this.stopped) {
        this.setState("closed");
        this.emit("end");
        if (retry && this.options.autoReconnect) {
          this.timer = setTimeout(() => {
            this.timer = null;
            if (!this.stopped) void this.attempt();
          }, this.options.reconnectDelay ?? RECONNECT_DELAY_MS);
        }
      }
    }
  }
}

// SSE reading of upstream bodies and writing to the client, chunk by chunk.
// Reading: the upstream body (a web ReadableStream from fetch) is decoded and fed to
// eventsource-parser as it arrives; each complete event is handed on at once.
// Writing: headers go out at once (flushHeaders), each event is one res.write (node sends
// it immediately: the server's sockets have Nagle off), and the writer waits for 'drain'
// when the client reads slower than the upstream writes, so memory stays bounded.
import "server-only";
import type { ServerResponse } from "node:http";
import { createParser, type EventSourceMessage } from "eventsource-parser";

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

export function startSse(res: ServerResponse, status = 200): void {
  res.writeHead(status, SSE_HEADERS);
  res.flushHeaders();
}

/** Writes one chunk; resolves at once unless the socket's buffer is full, then on 'drain'. */
export function write(res: ServerResponse, chunk: string | Uint8Array): Promise<void> | undefined {
  if (res.write(chunk)) return undefined;
  if (res.destroyed) return undefined;
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Reads an SSE body and calls onEvent for each event as soon as it is complete. onEvent may
 * return a promise (backpressure) which is awaited before the next chunk is read; it may
 * return false to stop reading (the upstream connection is then released). onChunk, when
 * given, runs first for each raw chunk.
 */
export async function readSse(
  body: AsyncIterable<Uint8Array>,
  onEvent: (msg: EventSourceMessage) => void | false | Promise<void | false>,
  onChunk?: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => void queue.push(m) });
  const decoder = new TextDecoder();
  for await (const value of body) {
    if (onChunk) {
      const p = onChunk(value);
      if (p) await p;
    }
    parser.feed(decoder.decode(value, { stream: true }));
    for (let i = 0; i < queue.length; i++) {
      let r = onEvent(queue[i]);
      if (r && typeof r === "object") r = await r;
      if (r === false) {
        queue.length = 0;
        return; // leaving the loop ends the body
      }
    }
    queue.length = 0;
  }
  // an event still missing its blank line when the body ends is incomplete and dropped
}

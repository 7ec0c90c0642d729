// AWS's binary event-stream framing (application/vnd.amazon.eventstream, used by Bedrock's
// ConverseStream): each message is a 4-byte big-endian total length, a header length, a
// prelude CRC, headers, a payload and a message CRC. The body's chunks are cut anywhere: the
// reader gathers whole messages and has AWS's own codec (@smithy/eventstream-codec) decode
// and check each one. Each message becomes a StreamReader message (lib/relay/providers/types.ts):
// - an event (:message-type "event"): event = its :event-type, data = its payload as text;
// - an exception (:message-type "exception"): event = "exception:" + its :exception-type,
//   data = its payload (a JSON {"message": ...});
// - an error (:message-type "error"): event = "error:" + its :error-code, data = a JSON
//   {"message": its :error-message}.
import "server-only";
import { EventStreamCodec, type Message } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { EventSourceMessage } from "eventsource-parser";
import type { StreamReader } from "./types";

export const EVENT_STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream";
/** The smallest message (prelude and message CRC, nothing else) and a bound on one message. */
const MIN_MESSAGE = 16;
const MAX_MESSAGE = 24 * 1024 * 1024;

const header = (m: Message, name: string): string => {
  const h = m.headers[name];
  return h && h.type === "string" ? h.value : "";
};

/** One decoded message as a stream message. */
export function eventMessage(m: Message): EventSourceMessage {
  const kind = header(m, ":message-type") || "event";
  if (kind === "error") return { event: `error:${header(m, ":error-code")}`, data: JSON.stringify({ message: header(m, ":error-message") }), id: undefined };
  const data = toUtf8(m.body);
  if (kind === "exception") return { event: `exception:${header(m, ":exception-type")}`, data, id: undefined };
  return { event: header(m, ":event-type"), data, id: undefined };
}

/** Reads an event-stream body (readSse's contract); throws when a message is malformed or the body ends inside one. */
export const readEventStream: StreamReader = async (body, onEvent, onChunk) => {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buf: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    if (onChunk) {
      const p = onChunk(chunk);
      if (p) await p;
    }
    if (buf.length === 0) buf = chunk;
    else {
      const joined = new Uint8Array(buf.length + chunk.length);
      joined.set(buf);
      joined.set(chunk, buf.length);
      buf = joined;
    }
    let at = 0;
    while (buf.length - at >= 4) {
      const total = ((buf[at] << 24) | (buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]) >>> 0;
      if (total < MIN_MESSAGE || total > MAX_MESSAGE) throw new Error("malformed event-stream message");
      if (buf.length - at < total) break;
      // decode() checks both CRCs and throws on a mismatch
      const msg = codec.decode(buf.subarray(at, at + total));
      at += total;
      let r = onEvent(eventMessage(msg));
      if (r && typeof r === "object") r = await r;
      if (r === false) return; // leaving the loop ends the body
    }
    // what is left waits for the next chunk, copied (the transport may reuse its buffer)
    buf = at === buf.length ? new Uint8Array(0) : buf.slice(at);
  }
  if (buf.length) throw new Error("the event stream ended inside a message");
};

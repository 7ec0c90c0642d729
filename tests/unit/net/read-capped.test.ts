// lib/net/read-capped.ts: a body over the limit is refused, a chunked one without being read
// to its end (the stream is cancelled once the limit is passed).
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readCappedText } from "@/lib/net/read-capped";

// A chunked body of `chunks` chunks of `size` bytes, counting how many were pulled.
function chunked(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { res: new Response(body), state };
}

describe("readCappedText", () => {
  it("reads a body within the limit as UTF-8 text", async () => {
    expect(await readCappedText(new Response('{"a":"é"}'), 100)).toBe('{"a":"é"}');
    const { res } = chunked(3, 10);
    expect(await readCappedText(res, 30)).toBe("a".repeat(30));
  });

  it("counts bytes, not characters", async () => {
    // 6 characters, 12 bytes
    await expect(readCappedText(new Response("éééééé"), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("refuses an over-limit chunked body without reading it all", async () => {
    const { res, state } = chunked(1000, 1024);
    await expect(readCappedText(res, 4096)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(state.pulled).toBeLessThan(10);
    expect(state.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const { state, res: inner } = chunked(1000, 1024);
    const res = new Response(inner.body, { headers: { "content-length": "1024000" } });
    await expect(readCappedText(res, 4096)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(state.pulled).toBeLessThanOrEqual(1);
  });
});

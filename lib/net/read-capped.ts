// Reading an answer's body with a byte limit, for the small documents fetched from URLs
// typed into the console (preset price sources, OIDC discovery, the update check). A
// declared Content-Length over the limit is refused before reading; a chunked answer is
// read chunk by chunk and cancelled as soon as the bytes read pass the limit, so a huge
// or endless body is never held in memory. No fetch here (lib/net/outbound.ts does).
import "server-only";

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The body as UTF-8 text, or BodyTooLargeError once more than maxBytes bytes arrive. */
export async function readCappedText(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

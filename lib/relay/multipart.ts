// The `model` field of a multipart/form-data upload (audio transcriptions): found once per
// request, then replaced by each attempt's upstream model (the channel's model_mapping).
// Everything else in the body (the boundary, the other parts, the binary file) is kept
// byte for byte: the new body is the old one with one byte range swapped.
//
// Framing (RFC 2046 §5.1.1, RFC 7578): a part starts after a delimiter line `--boundary`
// (preceded by CRLF, except at the very start of the body) followed by optional spaces and
// CRLF; its headers end with an empty line; its content ends at the next CRLF `--boundary`.
// `--boundary--` closes the body. Only a full delimiter line ends a part, so a file whose
// bytes contain CRLF, `--`, or the word "model" is never cut.
import "server-only";
import { RelayError } from "@/lib/relay/types";

/** The model named in the form and where its value sits in the body (byte offsets, end exclusive). */
export interface MultipartModel {
  model: string;
  start: number;
  end: number;
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;

const invalid = (message: string) => new RelayError(400, `Invalid request: ${message}`, "invalid_request_error", "invalid_request");

/**
 * Parameters of a header value (`form-data; name="model"`, `multipart/form-data; boundary=x`):
 * lower-cased names, values unquoted (quoted-string with backslash escapes, or a token).
 * Parameters without `=` (the value's own type) are skipped; the first of a repeated name wins.
 */
export function headerParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && (value[i] === ";" || value[i] === " " || value[i] === "\t")) i++;
    let name = "";
    while (i < n && value[i] !== "=" && value[i] !== ";") name += value[i++];
    if (value[i] !== "=") continue;
    i++;
    while (i < n && (value[i] === " " || value[i] === "\t")) i++;
    let v = "";
    if (value[i] === '"') {
      i++;
      while (i < n && value[i] !== '"') {
        if (value[i] === "\\" && i + 1 < n) i++;
        v += value[i++];
      }
      while (i < n && value[i] !== ";") i++;
    } else {
      while (i < n && value[i] !== ";") v += value[i++];
      v = v.trim();
    }
    const key = name.trim().toLowerCase();
    if (key && !out.has(key)) out.set(key, v);
  }
  return out;
}

/** The boundary of a multipart content type; a 400 when there is none (RFC 2046: 1 to 70 characters). */
export function multipartBoundary(contentType: string): string {
  const semi = contentType.indexOf(";");
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (!type.startsWith("multipart/")) throw invalid("the content type is not multipart");
  const boundary = semi === -1 ? undefined : headerParams(contentType.slice(semi + 1)).get("boundary");
  if (!boundary || boundary.length > 70) throw invalid("the multipart content type has no valid boundary");
  return boundary;
}

/**
 * Where the delimiter line whose `--boundary` ends at `after` ends: `after` itself for the
 * close delimiter (`--` follows), past the CRLF for a part's (optional spaces, then CRLF), or
 * -1 when the bytes are no delimiter line at all (a look-alike inside some content).
 */
function delimiterLineEnd(buf: Buffer, after: number): number {
  if (isClose(buf, after)) return after;
  let p = after;
  while (buf[p] === 0x20 || buf[p] === 0x09) p++;
  return buf[p] === CR && buf[p + 1] === LF ? p + 2 : -1;
}

const isClose = (buf: Buffer, after: number) => buf[after] === DASH && buf[after + 1] === DASH;

/** The next delimiter line at or after `from` (its `\r\n--boundary` index), skipping look-alikes inside content. */
function nextDelimiter(buf: Buffer, delim: Buffer, from: number): number {
  for (let at = buf.indexOf(delim, from); at !== -1; at = buf.indexOf(delim, at + 1)) {
    if (delimiterLineEnd(buf, at + delim.length) !== -1) return at;
  }
  return -1;
}

/** The `name` of a part, from its header block (latin1 text, lines separated by CRLF). */
function partName(headers: string): string | undefined {
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== "content-disposition") continue;
    return headerParams(line.slice(colon + 1)).get("name");
  }
  return undefined;
}

/**
 * Finds the one `model` part of a multipart/form-data body. Throws a 400 RelayError (OpenAI
 * `invalid_request_error`) when the body is not well-formed multipart, has no model, or has
 * more than one (the upstream might read another one than the one billed).
 */
export function locateMultipartModel(body: Uint8Array, contentType: string): MultipartModel {
  const boundary = multipartBoundary(contentType);
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Node decodes header values as latin1, so latin1 gives back the boundary's own bytes.
  const delim = Buffer.from("\r\n--" + boundary, "latin1");
  const dashBoundary = delim.subarray(2);
  // `after` is always the index just past a `--boundary`; the first one is at the very
  // start of the body or, after a preamble, preceded by CRLF like the others
  let after: number;
  if (buf.subarray(0, dashBoundary.length).equals(dashBoundary) && delimiterLineEnd(buf, dashBoundary.length) !== -1) after = dashBoundary.length;
  else {
    const first = nextDelimiter(buf, delim, 0);
    if (first === -1) throw invalid("the multipart body has no part with the declared boundary");
    after = first + delim.length;
  }
  let found: MultipartModel | undefined;
  while (!isClose(buf, after)) {
    const lineEnd = delimiterLineEnd(buf, after);
    const next = nextDelimiter(buf, delim, lineEnd);
    if (next === -1) throw invalid("the multipart body ends before its closing boundary");
    // the header block ends with an empty line; a part may have no headers at all
    let contentStart: number;
    let headers = "";
    if (buf[lineEnd] === CR && buf[lineEnd + 1] === LF) contentStart = lineEnd + 2;
    else {
      const headerEnd = buf.indexOf("\r\n\r\n", lineEnd, "latin1");
      if (headerEnd === -1 || headerEnd + 4 > next) throw invalid("a multipart part has no end to its headers");
      headers = buf.toString("latin1", lineEnd, headerEnd);
      contentStart = headerEnd + 4;
    }
    if (partName(headers) === "model") {
      if (found) throw invalid("the multipart body has more than one model field");
      found = { model: buf.toString("utf8", contentStart, next), start: contentStart, end: next };
    }
    after = next + delim.length;
  }
  // past the close delimiter comes the epilogue, ignored
  if (!found || !found.model) throw invalid("model is required (the multipart body has no model field)");
  return found;
}

/**
 * The body with the model's value replaced, every other byte unchanged; the body itself when
 * the model is the same. The length changes with the name: the transport sets Content-Length
 * from the body it sends.
 */
export function withMultipartModel(body: Uint8Array, at: MultipartModel, model: string): Uint8Array {
  if (model === at.model) return body;
  // a line break in the value could forge a delimiter line (a mapping is admin input, still)
  if (/[\r\n]/.test(model))
    throw new RelayError(500, "the channel's model mapping names a model that cannot be sent in a form", "upstream_error", "channel_misconfigured");
  const value = Buffer.from(model, "utf8");
  const out = Buffer.allocUnsafe(body.byteLength - (at.end - at.start) + value.length);
  out.set(body.subarray(0, at.start), 0);
  out.set(value, at.start);
  out.set(body.subarray(at.end), at.start + value.length);
  return out;
}

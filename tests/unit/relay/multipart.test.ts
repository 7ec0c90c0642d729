// The model field of multipart uploads: found without being fooled by the file's bytes,
// replaced with every other byte kept, and clear 400s (OpenAI-shaped) for broken forms.
import { describe, expect, it } from "vitest";
import { formats } from "@/lib/relay/formats";
import { headerParams, locateMultipartModel, multipartBoundary, withMultipartModel } from "@/lib/relay/multipart";
import { RelayError } from "@/lib/relay/types";

const CRLF = "\r\n";
// every character RFC 2046 allows in a boundary, a space inside: the header must quote it
const BOUNDARY = "a'()+_,-./:=? b";
const CONTENT_TYPE = `multipart/form-data; boundary="${BOUNDARY}"`;

// An audio file that looks like a form: CRLF pairs, the word model, a field header, and a
// delimiter look-alike (the boundary followed by neither "--" nor a line end).
const FILE = Buffer.concat([
  Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x80]),
  Buffer.from(`${CRLF}Content-Disposition: form-data; name="model"${CRLF}${CRLF}model${CRLF}`, "latin1"),
  Buffer.from(`${CRLF}--${BOUNDARY}X not a delimiter${CRLF}--`, "latin1"),
  Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 0xff)),
  Buffer.from([0x0d, 0x0a, 0x2d, 0x2d, 0x0d]),
]);

type Part = { headers: string[]; body: Buffer | string };
function form(parts: Part[], opts: { boundary?: string; preamble?: string; epilogue?: string } = {}): Buffer {
  const b = opts.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  if (opts.preamble !== undefined) chunks.push(Buffer.from(opts.preamble + CRLF, "latin1"));
  for (const p of parts) {
    chunks.push(Buffer.from(`--${b}${CRLF}${p.headers.map((h) => h + CRLF).join("")}${CRLF}`, "latin1"));
    chunks.push(typeof p.body === "string" ? Buffer.from(p.body, "utf8") : p.body);
    chunks.push(Buffer.from(CRLF, "latin1"));
  }
  chunks.push(Buffer.from(`--${b}--${CRLF}${opts.epilogue ?? ""}`, "latin1"));
  return Buffer.concat(chunks);
}

const filePart: Part = { headers: ['Content-Disposition: form-data; name="file"; filename="name=\\"model\\".wav"', "Content-Type: audio/wav"], body: FILE };
const modelPart = (model: string, disposition = 'form-data; name="model"'): Part => ({ headers: [`Content-Disposition: ${disposition}`], body: model });
const fieldPart = (name: string, value: string): Part => ({ headers: [`Content-Disposition: form-data; name="${name}"`], body: value });

function rewrite(body: Buffer, contentType: string, model: string): Buffer {
  return Buffer.from(withMultipartModel(body, locateMultipartModel(body, contentType), model));
}

function refusal(fn: () => unknown): RelayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RelayError);
    return e as RelayError;
  }
  throw new Error("expected a refusal");
}

describe("locateMultipartModel and withMultipartModel", () => {
  it("replaces the model after a binary file full of CRLFs and the word model, every other byte kept", () => {
    const parts = [filePart, fieldPart("language", "en"), modelPart("whisper-1"), fieldPart("response_format", "json")];
    const body = form(parts);
    const at = locateMultipartModel(body, CONTENT_TYPE);
    expect(at.model).toBe("whisper-1");
    expect(body.toString("latin1", at.start, at.end)).toBe("whisper-1");
    const out = rewrite(body, CONTENT_TYPE, "whisper-large-v3");
    // the expected body is the same form built with the mapped name: same boundary, same file
    expect(out.equals(form([filePart, fieldPart("language", "en"), modelPart("whisper-large-v3"), fieldPart("response_format", "json")]))).toBe(true);
    expect(out.length).toBe(body.length + "whisper-large-v3".length - "whisper-1".length);
    expect(out.subarray(0, at.start).equals(body.subarray(0, at.start))).toBe(true);
    expect(out.subarray(at.start + "whisper-large-v3".length).equals(body.subarray(at.end))).toBe(true);
    // the rewritten body parses again, with the new model in the same place
    expect(locateMultipartModel(out, CONTENT_TYPE)).toEqual({ model: "whisper-large-v3", start: at.start, end: at.start + 16 });
  });

  it("finds a model sent before the file, unquoted name, lower-case header, a preamble and an epilogue", () => {
    const body = form([modelPart("whisper-1", "form-data; name=model"), filePart], { preamble: "This is a preamble.", epilogue: "epilogue\r\n--" });
    const lower = Buffer.from(
      body.toString("latin1").replace("Content-Disposition: form-data; name=model", "content-disposition:form-data;name=model"),
      "latin1",
    );
    for (const b of [body, lower]) {
      const out = rewrite(b, CONTENT_TYPE, "mapped");
      expect(out.toString("latin1")).toBe(b.toString("latin1").replace(`${CRLF}${CRLF}whisper-1${CRLF}`, `${CRLF}${CRLF}mapped${CRLF}`));
    }
  });

  it("reads an unquoted boundary, a part without headers, and padding after a delimiter", () => {
    const ct = "multipart/form-data;boundary=----formdata-undici-0123456789";
    const b = "----formdata-undici-0123456789";
    const body = Buffer.from(
      `--${b}  ${CRLF}${CRLF}no headers${CRLF}--${b}${CRLF}Content-Disposition: form-data; name="model"${CRLF}${CRLF}m-1${CRLF}--${b}--`,
      "latin1",
    );
    expect(rewrite(body, ct, "m-2").toString("latin1")).toBe(body.toString("latin1").replace("m-1", "m-2"));
  });

  it("serves what undici's FormData sends (the openai SDK's encoder), with a UTF-8 model name", async () => {
    const fd = new FormData();
    fd.append("file", new Blob([FILE], { type: "audio/wav" }), "a.wav");
    fd.append("model", "whisper-1");
    const req = new Request("http://x/", { method: "POST", body: fd });
    const body = Buffer.from(await req.arrayBuffer());
    const ct = req.headers.get("content-type")!;
    const out = rewrite(body, ct, "模型-v3");
    const parsed = await new Request("http://x/", { method: "POST", body: new Uint8Array(out), headers: { "content-type": ct } }).formData();
    expect(parsed.get("model")).toBe("模型-v3");
    const file = parsed.get("file") as File;
    expect(file.name).toBe("a.wav");
    expect(Buffer.from(await file.arrayBuffer()).equals(FILE)).toBe(true);
  });

  it("returns the body itself when the model does not change (no copy on unmapped channels)", () => {
    const body = form([filePart, modelPart("whisper-1")]);
    expect(withMultipartModel(body, locateMultipartModel(body, CONTENT_TYPE), "whisper-1")).toBe(body);
  });

  it("works on a view into a larger buffer (offsets are the view's)", () => {
    const body = form([modelPart("whisper-1"), filePart]);
    const big = Buffer.concat([Buffer.from("xxxx"), body, Buffer.from("yyyy")]);
    const view = new Uint8Array(big.buffer, big.byteOffset + 4, body.length);
    expect(Buffer.from(withMultipartModel(view, locateMultipartModel(view, CONTENT_TYPE), "up")).equals(rewrite(body, CONTENT_TYPE, "up"))).toBe(true);
  });

  it("refuses a mapped name with a line break (it could forge a part)", () => {
    const body = form([modelPart("whisper-1")]);
    const e = refusal(() => rewrite(body, CONTENT_TYPE, "evil\r\n--" + BOUNDARY));
    expect(e.status).toBe(500);
    expect(e.code).toBe("channel_misconfigured");
  });
});

describe("refusals: 400, invalid_request_error, in OpenAI's error shape", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["no model part", () => locateMultipartModel(form([filePart, fieldPart("language", "en")]), CONTENT_TYPE), /model is required/],
    ["an empty model", () => locateMultipartModel(form([filePart, modelPart("")]), CONTENT_TYPE), /model is required/],
    ["two model parts", () => locateMultipartModel(form([modelPart("cheap"), filePart, modelPart("dear")]), CONTENT_TYPE), /more than one model/],
    ["no boundary", () => locateMultipartModel(form([modelPart("m")]), "multipart/form-data"), /boundary/],
    ["another boundary than the body's", () => locateMultipartModel(form([modelPart("m")]), "multipart/form-data; boundary=other"), /declared boundary/],
    ["a body cut before its end", () => locateMultipartModel(form([modelPart("m"), filePart]).subarray(0, 200), CONTENT_TYPE), /closing boundary/],
    [
      "a part whose headers never end",
      () => locateMultipartModel(Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="model"${CRLF}--b--`), "multipart/form-data; boundary=b"),
      /headers/,
    ],
  ];
  for (const [what, fn, message] of cases)
    it(what, () => {
      const e = refusal(fn);
      expect(e.status).toBe(400);
      expect(e.message).toMatch(message);
      const { status, body } = formats["openai-chat"].renderError(e.toUpstreamError());
      expect(status).toBe(400);
      expect(JSON.parse(body)).toEqual({ error: { message: e.message, type: "invalid_request_error", param: null, code: "invalid_request" } });
    });
});

describe("header parameters", () => {
  it("unquotes, unescapes, lower-cases names and skips the value's type", () => {
    const p = headerParams(' form-data; NAME="file"; filename="a \\"b\\"; name=model.wav" ; x=token ');
    expect(Object.fromEntries(p)).toEqual({ name: "file", filename: 'a "b"; name=model.wav', x: "token" });
  });
  it("boundary: quoted or not, 70 characters at most", () => {
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(() => multipartBoundary("multipart/form-data; boundary=" + "x".repeat(71))).toThrow(/boundary/);
    expect(() => multipartBoundary("application/json")).toThrow(/not multipart/);
  });
});

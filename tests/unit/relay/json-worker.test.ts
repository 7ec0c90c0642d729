// The JSON worker of large relay bodies (lib/relay/json-worker.ts): what comes back is what
// JSON.parse / JSON.stringify would give on the main thread, long strings included, and the
// caller's objects are never changed.
import { describe, expect, it } from "vitest";
import { estimatePromptTokens, quarterTokens } from "@/lib/relay/estimate";
import { formats } from "@/lib/relay/formats";
import { OffThreadError, parseOffThread, serializeOffThread } from "@/lib/relay/json-worker";

const big = (n: number, c = "A") => c.repeat(n);

describe("JSON worker", () => {
  it("parses a body with long one-byte strings (shared back), a long two-byte string and small values", async () => {
    const image = "data:image/png;base64," + Buffer.alloc(600_000, 9).toString("base64");
    const latin = big(300_000, "é");
    const wide = big(300_000, "中");
    const body = {
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image_url", image_url: { url: image } },
          ],
        },
      ],
      latin,
      wide,
      n: 2,
      ok: true,
      none: null,
    };
    const { value, strings } = await parseOffThread(Buffer.from(JSON.stringify(body)));
    expect(value).toEqual(body);
    // the long strings are kept with their bytes (Latin-1, or UTF-16 for the CJK one) and
    // their quarter-tokens, counted on the worker as the estimate counts them
    expect([...strings.keys()].sort()).toEqual([image, image.slice(22), latin, wide].sort());
    expect(strings.get(wide)!.wide).toBe(true);
    expect(strings.get(latin)!.wide).toBe(false);
    for (const s of [image, latin, wide]) expect(strings.get(s)!.quarters).toBe(quarterTokens(s));
    expect(estimatePromptTokens(formats["openai-chat"].parse({ model: "m", messages: [{ role: "user", content: wide }] }), strings)).toBe(
      estimatePromptTokens(formats["openai-chat"].parse({ model: "m", messages: [{ role: "user", content: wide }] })),
    );
    expect(Buffer.from(strings.get(image)!.bytes).toString("latin1")).toBe(image);
    // and the data of the data: URL, as the ingress format cuts it
    expect(Buffer.from(strings.get(image.slice(22))!.bytes, strings.get(image.slice(22))!.start).toString("latin1")).toBe(image.slice(22));
  });

  it("rejects invalid JSON", async () => {
    await expect(parseOffThread(Buffer.from('{"a":'))).rejects.toBeInstanceOf(OffThreadError);
  });

  it("serialises like JSON.stringify, the parsed strings sent as their shared bytes, the caller's objects unchanged", async () => {
    const image = "data:image/png;base64," + Buffer.alloc(600_000, 3).toString("base64");
    const { value, strings } = await parseOffThread(
      Buffer.from(
        JSON.stringify({
          model: "m",
          input: [
            { type: "input_image", image_url: image },
            { type: "input_text", text: "x" },
          ],
        }),
      ),
    );
    const j = value as { model: string; input: { image_url?: string }[] };
    // a pass-through body: a shallow copy with another model; an adapter's body: new objects
    // around the same string, and a string made anew (cut from the URL)
    const payloads = [
      Object.assign({}, j, { model: "up" }),
      { contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: j.input[0].image_url!.slice(22) } }] }], again: j.input[0].image_url },
    ];
    for (const p of payloads) {
      const before = JSON.stringify(p);
      const bytes = await serializeOffThread(p, strings);
      expect(Buffer.from(bytes).toString("utf8")).toBe(before);
      expect(JSON.stringify(p)).toBe(before);
    }
    expect(j.input[0].image_url).toBe(image);
    // no long strings: cloned as is
    expect(Buffer.from(await serializeOffThread({ a: [1, "b"] }, new Map())).toString()).toBe('{"a":[1,"b"]}');
  });
});

import { describe, expect, it } from "vitest";
import { depthWithin, JsonTokenCount, MAX_JSON_DEPTH } from "@/lib/relay/body-bound";

function count(text: string, pieces = 1, limit = 1e9, keyLimit = 1e9): { tokens: number; keys: number; ok: boolean } {
  const buf = Buffer.from(text);
  const c = new JsonTokenCount();
  const size = Math.ceil(buf.length / pieces);
  let ok = true;
  for (let at = 0; at < buf.length && ok; at += size) ok = c.scan(buf.subarray(at, at + size), limit, keyLimit);
  return { tokens: c.tokens, keys: c.keys, ok };
}

describe("JSON structural token count", () => {
  it("counts { [ , : outside strings only", () => {
    expect(count('{"a":[1,2,{"b":"c"}]}')).toEqual({ tokens: 7, keys: 2, ok: true });
    expect(count('{"text":"a, b: {c} [d]"}').tokens).toBe(2);
    expect(count('{"t":"say \\"x, y\\" and \\\\","u":[1]}').tokens).toBe(5);
  });
  it("carries strings and escapes across chunk boundaries", () => {
    const body = JSON.stringify({ messages: Array.from({ length: 50 }, (_, i) => ({ role: "user", content: `a "quoted", \\ ${i} [x]: {y}` })) });
    const whole = count(body).tokens;
    expect(whole).toBe(1 + 1 + 1 + 50 * 4 + 49);
    for (const pieces of [2, 3, 7, 64, body.length]) expect(count(body, pieces).tokens).toBe(whole);
  });
  it("passes a big base64 string at the cost of a few tokens", () => {
    const body = JSON.stringify({
      model: "m",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64," + "QUJD".repeat(1 << 20) } }] }],
    });
    expect(count(body, 64).tokens).toBeLessThan(20);
  });
  it("stops once past the limit", () => {
    const body = "[" + "1,".repeat(1000) + "1]";
    expect(count(body, 10, 500)).toEqual({ tokens: 501, keys: 0, ok: false });
    expect(count(body, 10, 5000).ok).toBe(true);
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, "v:,"])));
    expect(count(wide, 4, 5000, 100)).toMatchObject({ keys: 101, ok: false });
    expect(count(wide, 4, 5000, 300)).toEqual({ tokens: 600, keys: 300, ok: true });
  });

  it("refuses nesting past MAX_JSON_DEPTH, across chunks, brackets in strings not counted", () => {
    const nest = (d: number) => `{"a":${"[".repeat(d - 1)}${"]".repeat(d - 1)}}`;
    for (const pieces of [1, 7]) {
      const deep = (text: string) => {
        const buf = Buffer.from(text);
        const c = new JsonTokenCount();
        const size = Math.ceil(buf.length / pieces);
        let ok = true;
        for (let at = 0; at < buf.length && ok; at += size) ok = c.scan(buf.subarray(at, at + size), 1e9, 1e9);
        return { ok, tooDeep: c.tooDeep };
      };
      expect(deep(nest(MAX_JSON_DEPTH))).toEqual({ ok: true, tooDeep: false });
      expect(deep(nest(MAX_JSON_DEPTH + 1))).toEqual({ ok: false, tooDeep: true });
      // many siblings, each shallow: depth goes back down
      expect(deep(`[${Array.from({ length: 2000 }, () => "[[1]]").join(",")}]`)).toEqual({ ok: true, tooDeep: false });
      expect(deep(`{"s":"${"[".repeat(5000)}"}`)).toEqual({ ok: true, tooDeep: false });
    }
  });

  it("depthWithin: the same bound on a whole small body", () => {
    const nest = (d: number) => `{"a":${"[".repeat(d - 1)}${"]".repeat(d - 1)}}`;
    expect(depthWithin(Buffer.from(nest(MAX_JSON_DEPTH)))).toBe(true);
    expect(depthWithin(Buffer.from(nest(MAX_JSON_DEPTH + 1)))).toBe(false);
    expect(depthWithin(Buffer.from(nest(6000)))).toBe(false);
    expect(depthWithin(Buffer.from(`{"s":"${"[".repeat(5000)}"}`))).toBe(true);
    // escaped quotes do not end a string; an escaped backslash before a quote does
    expect(depthWithin(Buffer.from(`{"s":"\\"${"[".repeat(600)}\\"", "t":"\\\\", "u":${nest(10)}}`))).toBe(true);
    expect(depthWithin(Buffer.from(`{"t":"\\\\","u":${nest(600)}}`))).toBe(false);
  });
});

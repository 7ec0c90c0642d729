// The pass-through estimate counts an inline image (a data: URL) as one image, not its base64
// as text: a 4 MB image used to count a million tokens, walked on the event loop.
import { describe, expect, it } from "vitest";
import { estimateInputTokens } from "@/lib/relay/estimate";

describe("estimateInputTokens", () => {
  it("counts a data: URL as an image and text as text", () => {
    const image = "data:image/png;base64," + Buffer.alloc(3_000_000, 1).toString("base64");
    expect(estimateInputTokens(image)).toBe(765);
    expect(
      estimateInputTokens([
        {
          role: "user",
          content: [
            { type: "input_text", text: "abcdefgh" },
            { type: "input_image", image_url: image },
          ],
        },
      ]),
    ).toBe(1 + 3 + 2 + 3 + 765); // "user", "input_text", the text, "input_image", the image
    // text that merely mentions a data URL is text
    expect(estimateInputTokens("see data:image/png;base64,AAAA")).toBe(8);
  });
});

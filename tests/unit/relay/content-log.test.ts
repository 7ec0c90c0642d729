// What LogChatContentEnabled keeps of a chat call (lib/relay/content-log.ts): never an image's data.
import { describe, expect, it } from "vitest";
import { chatContentOf } from "@/lib/relay/content-log";
import type { ChatRequest } from "@/lib/relay/types";

const req = (messages: ChatRequest["messages"]): ChatRequest => ({ model: "m", messages, stream: false }) as ChatRequest;

describe("chatContentOf", () => {
  it("writes an image part and a Markdown image with a data URL as [image], keeping other links", () => {
    const out = chatContentOf(
      req([
        { role: "user", content: [{ type: "text", text: "draw a dot" }] },
        { role: "assistant", content: [{ type: "text", text: "here: ![image](data:image/png;base64,iVBORw0KGgo=) and ![logo](https://example.com/a.png)" }] },
        { role: "user", content: [{ type: "text", text: "again ![x](data:image/jpeg;base64,/9j/4AAQ)" }] },
      ]),
    );
    expect(out.context).toEqual([
      { role: "user", content: "draw a dot" },
      { role: "assistant", content: "here: [image] and ![logo](https://example.com/a.png)" },
    ]);
    expect(out.inputContent).toBe("again [image]");
    expect(JSON.stringify(out)).not.toContain("base64");
  });
});

// What LogChatContentEnabled keeps of a chat call (docs/relay-options.md, "Chat content in the
// usage log"): the system prompt, the last user message (input), the messages before it
// (context, most recent first kept) and the answer's text (the pipeline's captureOutput). Text
// only: an image is written as "[image]" (an image part, or a Markdown image with a data URL in
// the text), a tool call as its name and arguments. Every field
// is cut to MAX_LOGGED_CONTENT characters, the context as a whole too.
import "server-only";
import { MAX_LOGGED_CONTENT } from "@/lib/logs/other";
import type { ChatRequest, Message } from "@/lib/relay/types";

export { MAX_LOGGED_CONTENT };

const cut = (s: string) => (s.length > MAX_LOGGED_CONTENT ? s.slice(0, MAX_LOGGED_CONTENT) + "…" : s);

// A Markdown image with a data URL (an image answer the client sends back as text): its data
// is never kept either.
const DATA_IMAGE = /!\[[^\]]*\]\(data:[^)]*\)/g;
const withoutImageData = (t: string) => (t.includes("](data:") ? t.replace(DATA_IMAGE, "[image]") : t);

function textOf(m: Message): string {
  let t = "";
  for (const p of m.content) t += p.type === "text" ? withoutImageData(p.text) : "[image]";
  if (m.toolCalls) for (const c of m.toolCalls) t += `${t ? "\n" : ""}[tool call ${c.name}] ${c.arguments}`;
  return t;
}

export function chatContentOf(req: ChatRequest): { systemPrompt?: string; context?: { role: string; content: string }[]; inputContent?: string } {
  let last = -1;
  for (let i = req.messages.length - 1; i >= 0; i--)
    if (req.messages[i].role === "user") {
      last = i;
      break;
    }
  const context: { role: string; content: string }[] = [];
  let room = MAX_LOGGED_CONTENT;
  for (let i = (last === -1 ? req.messages.length : last) - 1; i >= 0 && room > 0; i--) {
    const m = req.messages[i];
    let content = textOf(m);
    if (content.length > room) content = content.slice(0, room) + "…";
    room -= content.length;
    context.unshift({ role: m.role, content });
  }
  return {
    systemPrompt: req.system ? cut(req.system) : undefined,
    context: context.length ? context : undefined,
    inputContent: last === -1 ? undefined : cut(textOf(req.messages[last])),
  };
}

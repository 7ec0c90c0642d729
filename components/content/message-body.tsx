// An inbox message's body (docs/messages.md): Markdown or HTML, the only formats the API
// accepts (lib/messages/field-rules.ts), through the same sanitizing renderer as the admin's
// other content (./markdown.tsx: no script, no on* handler, no javascript: link).
import type { MessageFormat } from "@/lib/messages/field-rules";
import { SafeHtml, SafeMarkdown } from "./markdown";

export function MessageBody({ content, format }: { content: string; format: MessageFormat | string }) {
  const className = "md-content text-sm";
  if (format === "html") return <SafeHtml className={className}>{content}</SafeHtml>;
  return <SafeMarkdown className={className}>{content}</SafeMarkdown>;
}

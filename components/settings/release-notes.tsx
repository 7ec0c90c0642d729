"use client";
// A release's notes (GitHub Markdown, sanitized) in the update dialog of the settings' other
// tab: a chunk of its own, fetched when the dialog opens (docs/console-ui.md, "Page weight").
import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

export default function ReleaseNotes({ body }: { body: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]}>
      {body}
    </ReactMarkdown>
  );
}

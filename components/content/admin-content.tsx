// Content an administrator wrote in the settings (HomePageContent, About): a lone http(s) URL
// is shown in a frame, anything else as Markdown with sanitized HTML (./markdown.tsx).
import { contentKind } from "@/lib/client/branding";
import { SafeMarkdown } from "./markdown";

export function AdminContent({ content, title }: { content: string; title: string }) {
  const value = content.trim();
  if (contentKind(value) === "url") {
    return <iframe src={value} title={title} className="block h-[calc(100vh-8rem)] w-full border-0" />;
  }
  return <SafeMarkdown className="md-content mx-auto max-w-5xl px-4 py-6">{value}</SafeMarkdown>;
}

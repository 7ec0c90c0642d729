"use client";
// A playground reply rendered as Markdown (docs/console-ui.md, "Playground"): GFM (tables,
// task lists, strikethrough), HTML in the text shown as text and never run, the tree
// sanitized with the GitHub schema, then code blocks highlighted (highlight.js grammars
// through rehype-highlight). Every code block has its own copy button. Loaded on demand
// (next/dynamic) so that the page's first paint does not carry the grammars.
import { useTranslations } from "next-intl";
import { useRef, type ComponentPropsWithoutRef } from "react";
import Markdown, { type Options } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import type { Nodes } from "mdast";
import { CopyButton } from "@/components/ui/copy-button";

// HTML written by the model becomes plain text: shown as written, never parsed or run.
function htmlAsText() {
  const walk = (node: Nodes) => {
    if (!("children" in node)) return;
    node.children = node.children.map((c) => (c.type === "html" ? { type: "text", value: c.value } : c)) as typeof node.children;
    node.children.forEach(walk);
  };
  return walk;
}

const REMARK: NonNullable<Options["remarkPlugins"]> = [remarkGfm, htmlAsText];
// Sanitize first (it keeps a code block's language-* class), highlight after (its hljs-*
// classes are ours, not the model's).
const REHYPE: NonNullable<Options["rehypePlugins"]> = [rehypeSanitize, [rehypeHighlight, { detect: false }]];

export default function ReplyMarkdown({ text }: { text: string }) {
  return (
    <div className="md-content md-reply">
      <Markdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={{ pre: CodeBlock, a: ReplyLink }}>
        {text}
      </Markdown>
    </div>
  );
}

function CodeBlock({ node: _node, children, ...props }: ComponentPropsWithoutRef<"pre"> & { node?: unknown }) {
  const t = useTranslations("playground");
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="group relative">
      <pre ref={ref} {...props}>
        {children}
      </pre>
      <CopyButton
        successKey="playground.copied"
        label={t("copyCode")}
        className="absolute top-1.5 right-1.5"
        text={() => (ref.current?.querySelector("code")?.textContent ?? "").replace(/\n$/, "")}
      />
    </div>
  );
}

// A link of the model's text opens in a new tab, without access to this page.
function ReplyLink({ node: _node, ...props }: ComponentPropsWithoutRef<"a"> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

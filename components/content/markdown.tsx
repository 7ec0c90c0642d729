// Administrator-written content, rendered safely (docs/console-ui.md, "Branding and
// announcement"): Markdown (GFM) in which HTML is allowed, then sanitized with the GitHub
// schema of rehype-sanitize: no <script>, <style> or <iframe>, no on* handler, no
// javascript: or data: link; ids are prefixed so that they cannot clobber the page's globals.
import Markdown, { type Options } from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import type { Root } from "mdast";

// The GitHub schema, plus class names and a link's target (rel is set by the browser rules
// below: a link that opens a new tab gets noopener).
const SCHEMA = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    "*": [...(defaultSchema.attributes?.["*"] ?? []), "className"],
    a: [...(defaultSchema.attributes?.a ?? []), "target", "rel"],
  },
};

const REHYPE: NonNullable<Options["rehypePlugins"]> = [rehypeRaw, [rehypeSanitize, SCHEMA]];

export function SafeMarkdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={REHYPE} components={{ a: SafeLink }}>
        {children}
      </Markdown>
    </div>
  );
}

// Reads the whole text as one HTML block, so that HTML with blank lines or indentation is
// never taken for Markdown (a footer is HTML, not Markdown).
function wholeHtml() {
  return (tree: Root, file: { value: unknown }) => {
    tree.children = [{ type: "html", value: String(file.value) }];
  };
}

export function SafeHtml({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown remarkPlugins={[wholeHtml]} rehypePlugins={REHYPE} components={{ a: SafeLink }}>
        {children}
      </Markdown>
    </div>
  );
}

function SafeLink({ node: _node, ...props }: React.AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) {
  const rel = props.target === "_blank" ? "noopener noreferrer" : props.rel;
  return <a {...props} rel={rel} />;
}

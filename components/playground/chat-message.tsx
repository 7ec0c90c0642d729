"use client";
// One message of the playground's chat: the user's text as typed; a reply as sanitized
// Markdown (loaded on demand), with its copy and regenerate buttons and, once the stream
// said so, its tokens and cost (docs/console-ui.md, "Playground").
import { RotateCcw } from "lucide-react";
import { useTranslations } from "next-intl";
import { lazy, Suspense } from "react";
import { useQuotaDisplay } from "@/components/layout/providers";
import { cn } from "@/components/ui/cn";
import { renderQuota } from "@/lib/client/format";
import type { ChatMessage as Message } from "@/lib/client/playground";
import { CopyButton } from "@/components/ui/copy-button";

// The Markdown renderer and its grammars are a chunk of their own, loaded when a reply is
// first shown.
const ReplyMarkdown = lazy(() => import("./reply-markdown"));

export function ChatMessage({ message: m, onRegenerate }: { message: Message; onRegenerate?: () => void }) {
  const t = useTranslations("playground");
  const display = useQuotaDisplay();
  const reply = m.role === "assistant";
  const rendered = reply && m.status !== "error" && m.content;
  const done = reply && (m.status === "complete" || m.status === "error");
  return (
    <li className={cn("flex flex-col gap-1", reply ? "items-start" : "items-end")}>
      <div
        data-testid={`chat-${m.role}`}
        data-status={m.status}
        className={cn(
          "max-w-[85%] min-w-0 rounded-lg px-3 py-2 text-sm break-words",
          !rendered && "whitespace-pre-wrap",
          reply ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" : "bg-blue-600 text-white",
          m.status === "error" && "border border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200",
        )}
      >
        {rendered ? (
          <Reply text={m.content} />
        ) : (
          m.content || (m.status === "loading" ? <span className="animate-pulse text-zinc-500 dark:text-zinc-400">{t("thinking")}</span> : "")
        )}
      </div>
      {done && (
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400" data-testid="reply-meta">
          {m.content && <CopyButton successKey="playground.copied" label={t("copyReply")} text={() => m.content} />}
          {onRegenerate && (
            <button
              type="button"
              aria-label={t("regenerate")}
              title={t("regenerate")}
              onClick={onRegenerate}
              className="inline-flex h-7 w-7 items-center justify-center rounded-md border border-zinc-200 bg-white text-zinc-600 hover:bg-zinc-50 hover:text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
            >
              <RotateCcw className="h-3.5 w-3.5" aria-hidden />
            </button>
          )}
          {m.usage && (
            <span data-testid="reply-usage">
              {t("replyTokens", { prompt: m.usage.prompt_tokens, completion: m.usage.completion_tokens })}
              {m.quota !== undefined && ` · ${t("replyCost", { cost: renderQuota(m.quota, display) })}`}
            </span>
          )}
        </div>
      )}
    </li>
  );
}

// The Markdown of a reply, its plain text while the renderer loads.
function Reply({ text }: { text: string }) {
  return (
    <Suspense fallback={<span className="whitespace-pre-wrap">{text}</span>}>
      <ReplyMarkdown text={text} />
    </Suspense>
  );
}

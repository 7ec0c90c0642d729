"use client";
// Cells and dialogs shared by the drawing and task logs (docs/tasks.md, "The pages").
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { copyText } from "@/lib/client/clipboard";
import { channelColor, progressPercent, TASK_STATUS_COLOR, taskStatusKey } from "@/lib/client/tasks";

export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("tasks.status");
  const key = taskStatusKey(status);
  return <Badge color={TASK_STATUS_COLOR[key]}>{t(key)}</Badge>;
}

// The progress as a ring with the percent inside.
export function ProgressCircle({ progress }: { progress: string }) {
  const p = progressPercent(progress);
  const r = 14;
  const c = 2 * Math.PI * r;
  return (
    <span className="inline-flex items-center" role="img" aria-label={`${p}%`} title={`${p}%`}>
      <svg width="36" height="36" viewBox="0 0 36 36" aria-hidden>
        <circle cx="18" cy="18" r={r} fill="none" strokeWidth="4" className="stroke-zinc-200 dark:stroke-zinc-700" />
        <circle
          cx="18"
          cy="18"
          r={r}
          fill="none"
          strokeWidth="4"
          strokeLinecap="round"
          strokeDasharray={`${(p / 100) * c} ${c}`}
          transform="rotate(-90 18 18)"
          className={p >= 100 ? "stroke-green-500" : "stroke-blue-500"}
        />
        <text x="18" y="21" textAnchor="middle" fontSize="9" className="fill-zinc-700 dark:fill-zinc-200">
          {Math.round(p)}
        </text>
      </svg>
    </span>
  );
}

// The channel id as a coloured tag; a click copies it.
export function ChannelTag({ id }: { id: number }) {
  const t = useTranslations("tasks");
  if (!id) return null;
  return (
    <button type="button" title={t("copyChannel")} onClick={() => void copyText(String(id), "tasks.copied")}>
      <Badge color={channelColor(id)}>{id}</Badge>
    </button>
  );
}

// A long text (a failure reason, a prompt) in a dialog.
export function TextDialog({ title, text, onClose }: { title: string; text: string | null; onClose: () => void }) {
  return (
    <Dialog open={text !== null} onOpenChange={(o) => !o && onClose()} title={title} className="w-[min(48rem,94vw)]">
      <pre className="max-h-[60vh] overflow-auto text-sm break-all whitespace-pre-wrap" data-testid="task-text-dialog">
        {text}
      </pre>
    </Dialog>
  );
}

// A whole record as JSON in a dialog.
export function JsonDialog({ title, record, onClose }: { title: string; record: unknown; onClose: () => void }) {
  return (
    <Dialog open={record !== null} onOpenChange={(o) => !o && onClose()} title={title} className="w-[min(56rem,94vw)]">
      <pre
        className="max-h-[65vh] overflow-auto rounded bg-zinc-100 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-800"
        data-testid="task-json-dialog"
      >
        {record === null ? "" : JSON.stringify(record, null, 2)}
      </pre>
    </Dialog>
  );
}

// A text cell: a click on it opens the whole text; "none" when empty.
export function TextCell({ text, onOpen }: { text: string; onOpen: (text: string) => void }) {
  const t = useTranslations("tasks");
  if (!text) return <span className="text-zinc-400">{t("none")}</span>;
  return (
    <button type="button" className="max-w-56 truncate text-left text-blue-700 hover:underline dark:text-blue-400" title={text} onClick={() => onOpen(text)}>
      {text}
    </button>
  );
}

"use client";
// The playground's conversations kept in this browser (docs/console-ui.md, "Playground"):
// pick one, start a new one, rename or delete one. Switching is held while a reply streams.
import { Pencil, Plus, Trash2 } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { CONVERSATION_NAME_MAX, type Conversation } from "@/lib/client/playground";

export function ConversationList({
  conversations,
  active,
  busy,
  onPick,
  onNew,
  onRename,
  onDelete,
}: {
  conversations: Conversation[];
  active: string;
  busy: boolean;
  onPick: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, name: string) => void;
  onDelete: (id: string) => void;
}) {
  const t = useTranslations("playground");
  const [renaming, setRenaming] = useState<Conversation | null>(null);
  const [name, setName] = useState("");
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const title = (c: Conversation) => c.name || t("untitled");

  function saveName(e?: FormEvent) {
    e?.preventDefault();
    if (renaming) onRename(renaming.id, name.trim());
    setRenaming(null);
  }

  return (
    <section
      aria-label={t("conversations")}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("conversations")}</h2>
        <Button variant="secondary" size="sm" disabled={busy} onClick={onNew}>
          <Plus className="h-4 w-4" aria-hidden />
          {t("newConversation")}
        </Button>
      </div>
      <ul className="flex max-h-56 flex-col gap-0.5 overflow-y-auto">
        {conversations.map((c) => {
          const current = c.id === active;
          return (
            <li
              key={c.id}
              className={cn(
                "group flex items-center gap-1 rounded-md pr-1",
                current ? "bg-blue-50 dark:bg-blue-950/50" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/60",
              )}
            >
              <button
                type="button"
                aria-current={current ? "true" : undefined}
                disabled={busy && !current}
                onClick={() => onPick(c.id)}
                className={cn(
                  "min-w-0 flex-1 truncate px-2 py-1.5 text-left text-sm disabled:cursor-not-allowed disabled:opacity-60",
                  current ? "font-medium text-blue-700 dark:text-blue-300" : "text-zinc-700 dark:text-zinc-300",
                )}
              >
                {title(c)}
              </button>
              <button
                type="button"
                aria-label={t("renameConversation", { name: title(c) })}
                title={t("rename")}
                onClick={() => {
                  setName(c.name);
                  setRenaming(c);
                }}
                className="rounded p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
              >
                <Pencil className="h-3.5 w-3.5" aria-hidden />
              </button>
              <button
                type="button"
                aria-label={t("deleteConversation", { name: title(c) })}
                title={t("delete")}
                disabled={busy && current}
                onClick={() => setDeleting(c)}
                className="rounded p-1 text-zinc-500 hover:bg-red-100 hover:text-red-700 disabled:opacity-40 dark:text-zinc-400 dark:hover:bg-red-950 dark:hover:text-red-300"
              >
                <Trash2 className="h-3.5 w-3.5" aria-hidden />
              </button>
            </li>
          );
        })}
      </ul>

      <Dialog
        open={renaming !== null}
        onOpenChange={(open) => !open && setRenaming(null)}
        title={t("rename")}
        footer={<DialogActions cancel={t("cancel")} onCancel={() => setRenaming(null)} action={t("save")} onAction={saveName} />}
      >
        <form onSubmit={saveName}>
          <Field label={t("conversationName")} value={name} maxLength={CONVERSATION_NAME_MAX} autoFocus onChange={(e) => setName(e.target.value)} />
        </form>
      </Dialog>
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("delete")}
        description={deleting ? t("deleteConfirm", { name: title(deleting) }) : undefined}
        footer={
          <DialogActions
            danger
            cancel={t("cancel")}
            onCancel={() => setDeleting(null)}
            action={t("delete")}
            onAction={() => {
              if (deleting) onDelete(deleting.id);
              setDeleting(null);
            }}
          />
        }
      />
    </section>
  );
}

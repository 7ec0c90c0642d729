"use client";
// The codes just created, shown once: the server keeps only their hashes, so this list is the
// only place they can be read. Copy one, or all of them one per line.
import { useTranslations } from "next-intl";
import { Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/textarea";
import { copyText } from "@/lib/client/clipboard";

export function CreatedKeysDialog({ keys, onClose }: { keys: string[] | null; onClose: () => void }) {
  const t = useTranslations("redemptions.keys");
  const [manual, setManual] = useState(false);
  const all = (keys ?? []).join("\n");
  async function copy(text: string) {
    if (!(await copyText(text, "redemptions.keys.copied"))) setManual(true);
  }
  return (
    <Dialog
      open={keys !== null}
      onOpenChange={(o) => {
        if (!o) {
          setManual(false);
          onClose();
        }
      }}
      title={t("title", { count: keys?.length ?? 0 })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("close")}
          </Button>
          <Button onClick={() => void copy(all)}>
            <Copy aria-hidden className="h-4 w-4" />
            {t("copyAll")}
          </Button>
        </>
      }
    >
      <Alert tone="warning">{t("once")}</Alert>
      {manual ? (
        <Textarea
          readOnly
          value={all}
          rows={Math.min(10, keys?.length ?? 1)}
          aria-label={t("manual")}
          onFocus={(e) => e.target.select()}
          className="font-mono text-xs"
        />
      ) : (
        <ul className="flex max-h-80 flex-col gap-1 overflow-y-auto" data-testid="created-keys">
          {(keys ?? []).map((k) => (
            <li key={k} className="flex items-center justify-between gap-2 rounded border border-zinc-200 px-2 py-1 dark:border-zinc-800">
              <code className="font-mono text-xs break-all">{k}</code>
              <Button size="sm" variant="ghost" onClick={() => void copy(k)} aria-label={t("copyOne", { key: k })}>
                <Copy aria-hidden className="h-3.5 w-3.5" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

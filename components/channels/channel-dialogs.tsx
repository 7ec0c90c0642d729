"use client";
// Small dialogs of the channel list: confirmation, edit models, batch tag, tag edit, the key.
import { useTranslations } from "next-intl";
import { useEffect, useState, type ReactNode } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { TextareaField } from "@/components/ui/textarea";
import { ensureFreshFactor } from "@/components/me/fresh-factor";
import { api } from "@/lib/client/api";
import { splitList } from "@/lib/channels/split-list";
import { isJsonObjectText } from "@/lib/client/channels";
import { copyText } from "@/lib/client/clipboard";
import { toast } from "@/lib/client/toast";
import { GroupCheckboxes } from "./group-checkboxes";
import type { Channel, TagRow } from "./types";

export function ConfirmDialog({
  open,
  title,
  description,
  confirm,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  confirm: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const t = useTranslations("channels");
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={description}
      footer={
        <DialogActions
          cancel={t("cancel")}
          onCancel={onClose}
          action={confirm}
          onAction={() => {
            onClose();
            onConfirm();
          }}
          danger
        />
      }
    />
  );
}

// PUT /api/channel/ {id, models}
export function EditModelsDialog({ channel, onClose, onSaved }: { channel: Channel | null; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("channels");
  const [models, setModels] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => setModels(splitList(channel?.models).join(",\n")), [channel]);
  async function save() {
    if (!channel) return;
    setBusy(true);
    try {
      await api.put("/api/channel/", { id: channel.id, models: splitList(models.replace(/\n/g, ",")).join(",") });
      toast.success({ key: "channels.saved" });
      onSaved();
      onClose();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={channel !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("editModelsTitle", { name: channel?.name ?? "" })}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("save")} onAction={save} busy={busy} />}
    >
      <TextareaField label={t("fields.models")} hint={t("modelsHint")} rows={10} value={models} onChange={(e) => setModels(e.target.value)} />
    </Dialog>
  );
}

// POST /api/channel/batch/tag {ids, tag}: channels must be chosen and the tag non-empty.
export function BatchTagDialog({ open, ids, onClose, onSaved }: { open: boolean; ids: number[]; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("channels");
  const [tag, setTag] = useState("");
  useEffect(() => {
    if (open) setTag("");
  }, [open]);
  async function save() {
    if (!ids.length) {
      toast.error({ key: "channels.selectFirst" });
      return;
    }
    if (!tag.trim()) {
      toast.error({ key: "channels.tagRequired" });
      return;
    }
    try {
      const r = await api.post<number>("/api/channel/batch/tag", { ids, tag: tag.trim() });
      toast.success({ key: "channels.tagSet", values: { count: r.data } });
      onSaved();
      onClose();
    } catch {
      // reported by the API helper
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t("batchTagTitle")}
      description={t("batchTagDescription", { count: ids.length })}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("save")} onAction={save} />}
    >
      <Field label={t("fields.tag")} value={tag} onChange={(e) => setTag(e.target.value)} />
    </Dialog>
  );
}

// PUT /api/channel/tag {tag, new_tag, model_mapping, groups, models}: empty fields stay as they are.
export function TagEditDialog({ row, groups, onClose, onSaved }: { row: TagRow | null; groups: string[]; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("channels");
  const [newTag, setNewTag] = useState("");
  const [mapping, setMapping] = useState("");
  const [models, setModels] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (!row) return;
    setNewTag(row.tag);
    setMapping("");
    setModels(splitList(row.models).join(","));
    setChosen(splitList(row.group));
  }, [row]);
  const mappingBad = !isJsonObjectText(mapping);
  async function save() {
    if (!row) return;
    if (!newTag.trim()) {
      toast.error({ key: "channels.tagRequired" });
      return;
    }
    if (mappingBad) {
      toast.error({ key: "channels.mappingInvalid" });
      return;
    }
    try {
      await api.put("/api/channel/tag", {
        tag: row.tag,
        new_tag: newTag.trim() === row.tag ? null : newTag.trim(),
        model_mapping: mapping.trim() || null,
        groups: chosen.length ? chosen : null,
        models: splitList(models.replace(/\n/g, ",")).join(",") || null,
      });
      toast.success({ key: "channels.saved" });
      onSaved();
      onClose();
    } catch {
      // reported by the API helper
    }
  }
  const allGroups = [...new Set([...groups, ...chosen])];
  return (
    <Dialog
      open={row !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("tagEditTitle", { tag: row?.tag ?? "" })}
      description={t("tagEditDescription")}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("save")} onAction={save} />}
    >
      <Field label={t("newTag")} value={newTag} onChange={(e) => setNewTag(e.target.value)} />
      <GroupCheckboxes legend={t("fields.groups")} groups={allGroups} chosen={chosen} onChange={setChosen} />
      <TextareaField label={t("fields.models")} hint={t("modelsHint")} rows={4} value={models} onChange={(e) => setModels(e.target.value)} />
      <TextareaField
        label={t("fields.modelMapping")}
        hint={t("tagMappingHint")}
        rows={4}
        value={mapping}
        placeholder='{"gpt-4o": "gpt-4o-2024-08-06"}'
        error={mappingBad ? t("mappingInvalid") : undefined}
        onChange={(e) => setMapping(e.target.value)}
      />
    </Dialog>
  );
}

// The channel's stored key, asked for when the dialog opens (POST /api/channel/{id}/key: the
// root, or an admin with channels:reveal, after a fresh second factor when they have one; each
// reveal is an audit row, docs/permissions.md).
// Kept in this dialog's state only, dropped when it closes.
export function RevealKeyDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const t = useTranslations("channels");
  const [key, setKey] = useState<string | null>(null);
  useEffect(() => {
    setKey(null);
    if (!channel) return;
    let live = true;
    // a sensitive action: a fresh second factor first, when the admin has one
    ensureFreshFactor()
      .then(async (fresh) => {
        if (!fresh) return live && onClose();
        const r = await api.post<{ key: string }>(`/api/channel/${channel.id}/key`);
        if (live) setKey(r.data.key);
      })
      .catch(() => live && onClose());
    return () => {
      live = false;
    };
    // the channel alone starts a reveal
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channel]);
  return (
    <Dialog
      open={channel !== null}
      onOpenChange={(o) => !o && onClose()}
      title={channel ? t("revealKeyTitle", { name: channel.name }) : ""}
      description={t("revealKeyHint")}
      footer={
        <DialogActions
          cancel={t("cancel")}
          onCancel={onClose}
          action={t("copyKey")}
          busy={key === null}
          onAction={() => key !== null && void copyText(key, "channels.keyCopied")}
        />
      }
    >
      {key === null ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("revealKeyLoading")}</p>
      ) : (
        <TextareaField label={t("revealKeyLabel")} readOnly value={key} rows={Math.min(8, Math.max(2, key.split("\n").length))} className="font-mono" />
      )}
    </Dialog>
  );
}

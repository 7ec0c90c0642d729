"use client";
// The create drawer of /admin/messages: title, format, content and the recipients.
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { MessageFields } from "./message-fields";
import { draftBody, draftRefusal, type MessageDraft } from "./message-form";
import { RecipientPicker } from "./recipient-picker";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

const blank = (): MessageDraft => ({ title: "", format: "markdown", content: "" });

export function CreateDrawer({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const t = useTranslations("messages.form");
  const tc = useTranslations("messages");
  const catalogue = useServerCatalogue();
  const [draft, setDraft] = useState<MessageDraft>(blank);
  const [recipients, setRecipients] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setDraft(blank());
      setRecipients([]);
    }
  }, [open]);

  async function send() {
    const ids = recipients.map(Number);
    const refusal = draftRefusal(draft, ids, catalogue);
    if (refusal) {
      toast.error({ text: refusal });
      return;
    }
    setBusy(true);
    try {
      await api.post("/api/admin/messages", { ...draftBody(draft), user_ids: ids });
      toast.success({ key: "messages.form.sent", values: { count: ids.length } });
      onCreated();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t("createTitle")}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {tc("cancel")}
          </Button>
          <Button disabled={busy} onClick={() => void send()}>
            {t("send")}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4" data-testid="message-create-form">
        <MessageFields draft={draft} onChange={setDraft} />
        <RecipientPicker selected={recipients} onChange={setRecipients} />
      </div>
    </Drawer>
  );
}

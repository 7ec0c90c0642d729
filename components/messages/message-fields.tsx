"use client";
// Title, format (Markdown or HTML) and content: the fields both message drawers share.
import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/input";
import { RadioGroup } from "@/components/ui/radio-group";
import { TextareaField } from "@/components/ui/textarea";
import type { MessageDraft } from "./message-form";

export function MessageFields({ draft, onChange }: { draft: MessageDraft; onChange: (d: MessageDraft) => void }) {
  const t = useTranslations("messages.form");
  return (
    <>
      <Field label={t("title")} value={draft.title} maxLength={200} onChange={(e) => onChange({ ...draft, title: e.target.value })} />
      <RadioGroup
        legend={t("format")}
        value={draft.format}
        options={[
          { value: "markdown", label: "Markdown" },
          { value: "html", label: "HTML" },
        ]}
        onChange={(format) => onChange({ ...draft, format })}
      />
      <TextareaField
        label={t("content")}
        rows={8}
        value={draft.content}
        hint={draft.format === "html" ? t("htmlHint") : t("markdownHint")}
        onChange={(e) => onChange({ ...draft, content: e.target.value })}
      />
    </>
  );
}

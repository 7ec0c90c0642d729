// The message drawers' checks: the server's rules (lib/messages/field-rules.ts) with its
// messages, rendered in the console's language; the server checks everything again.
import { say, type ServerCatalogue } from "@/lib/i18n/render";
import { messageContentRefusal, messageRecipientsRefusal, messageTitleRefusal, type MessageFormat } from "@/lib/messages/field-rules";

export type MessageDraft = { title: string; format: MessageFormat; content: string };

export function draftRefusal(draft: MessageDraft, recipients: readonly number[] | null, catalogue: ServerCatalogue): string | null {
  const key = messageTitleRefusal(draft.title) ?? messageContentRefusal(draft.content) ?? (recipients ? messageRecipientsRefusal(recipients) : null);
  return key ? say(catalogue, key) : null;
}

export function draftBody(draft: MessageDraft) {
  return { title: draft.title.trim(), format: draft.format, content: draft.content.trim() };
}

// The message input rules shared by the server (lib/messages/*.ts) and the create/edit drawer
// of /admin/messages (components/messages/message-form.ts), so both refuse with the same
// message (docs/messages.md). Pure: no "server-only", no I/O.
import type { MessageKey } from "@/lib/i18n/server-messages";

export const MESSAGE_FORMATS = ["markdown", "html"] as const;
export type MessageFormat = (typeof MESSAGE_FORMATS)[number];
export const MESSAGE_TITLE_MAX = 200;
export const MESSAGE_CONTENT_MAX = 65_536;
// One request may address this many users (a message to every user of a large site is sent
// in a few requests; 10,000 at once is the tested case, docs/messages.md).
export const MESSAGE_RECIPIENTS_MAX = 50_000;

/** The title after trimming: not blank, at most 200 characters. */
export function messageTitleRefusal(title: string): MessageKey | null {
  const n = [...title.trim()].length;
  if (n === 0) return "message_title_blank";
  return n <= MESSAGE_TITLE_MAX ? null : "message_title_too_long";
}

/** The content after trimming: not empty, at most 65,536 characters. */
export function messageContentRefusal(content: string): MessageKey | null {
  const n = content.trim().length;
  if (n === 0) return "message_content_required";
  return n <= MESSAGE_CONTENT_MAX ? null : "message_content_too_long";
}

/** The recipients of a new message: at least one, at most MESSAGE_RECIPIENTS_MAX. */
export function messageRecipientsRefusal(ids: readonly number[]): MessageKey | null {
  if (ids.length === 0) return "message_recipients_required";
  return ids.length <= MESSAGE_RECIPIENTS_MAX ? null : "message_recipients_too_many";
}

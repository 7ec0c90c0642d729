// Input shapes of the message calls (new-api field names). The rules with their messages are
// lib/messages/field-rules.ts, applied by the verbs so that a refusal answers success:false.
import "server-only";
import { z } from "zod";
import { MESSAGE_FORMATS, MESSAGE_RECIPIENTS_MAX } from "@/lib/messages/field-rules";
import { MAX_INT32 } from "@/lib/http/params";

const format = z.enum(MESSAGE_FORMATS).optional();

export const createMessageBody = z.object({
  title: z.string().max(10_000).default(""),
  content: z.string().max(1_000_000).default(""),
  format,
  user_ids: z
    .array(z.number().int().positive().max(MAX_INT32))
    .max(MESSAGE_RECIPIENTS_MAX * 2)
    .default([]),
});
export type CreateMessageInput = z.infer<typeof createMessageBody>;

export const updateMessageBody = z.object({
  title: z.string().max(10_000).default(""),
  content: z.string().max(1_000_000).default(""),
  format,
});
export type UpdateMessageInput = z.infer<typeof updateMessageBody>;

// An ISO date or date-time (`2026-11-25`, `2026-11-25T10:00:00Z`); empty means no bound.
const isoDate = z
  .string()
  .max(40)
  .optional()
  .refine((v) => !v || !Number.isNaN(Date.parse(v)), "msg:invalid_parameter");

export const searchMessagesQuery = z.object({ keyword: z.string().max(200).optional(), start_date: isoDate, end_date: isoDate });

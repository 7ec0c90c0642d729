// Who is asking, as every verb receives it (`verb({ ctx, input })`): the caller's locale and
// address, the request's id (docs/operations.md, "Request ids"), and for signed-in callers the user. route() (lib/http/route.ts) builds it. Kept
// apart from route() so that verbs of any folder can name it without importing lib/http.
import type { User } from "@/generated/sqlite/client";
import type { Locale } from "@/lib/i18n/locale";
import type { MessageKey, MessageParams } from "@/lib/i18n/server-messages";

export type Ctx = {
  locale: Locale;
  ip: string;
  https: boolean;
  requestId: string;
  headers: Headers;
  t: (key: MessageKey, params?: MessageParams) => string;
};
export type UserCtx = Ctx & { user: User };

// The server's messages in the browser: next-intl hands the locale's server catalogue to the
// client under the "server" namespace (lib/i18n/request.ts), so a form refuses with the very
// words route() would answer, without shipping the other languages (docs/i18n.md).
import { useMessages } from "next-intl";
import type { ServerCatalogue } from "@/lib/i18n/render";

export function useServerCatalogue(): ServerCatalogue {
  return (useMessages() as unknown as { server: ServerCatalogue }).server;
}

// Fills a server message's {name} parameters: shared by the server (lib/i18n/server-messages.ts,
// every catalogue) and the browser's forms (lib/i18n/client-catalogue.ts, the locale's own
// catalogue only). It imports no catalogue, so that a client bundle carries none.
import type { ServerCatalogue, ServerMessageKey } from "@/lib/i18n/server-messages/en";

export type { ServerCatalogue };
export type MessageKey = ServerMessageKey;
export type MessageParams = Record<string, string | number>;

/** A template with its {name} parameters filled in (an unknown one stays as written). */
export function renderTemplate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** A catalogue's message for a key, rendered. */
export function say(catalogue: ServerCatalogue, key: MessageKey, params?: MessageParams): string {
  return renderTemplate(catalogue[key], params);
}

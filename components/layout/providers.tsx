"use client";
// Client-wide context: the site status (server-rendered first, then kept fresh by SWR and
// copied to localStorage as docs/product-rules.md lists), the session user, and SWR defaults.
import { createContext, useContext, useEffect, type ReactNode } from "react";
import useSWR, { SWRConfig } from "swr";
import { api, fetchData } from "@/lib/client/api";
import { quotaDisplayOf, type QuotaDisplay } from "@/lib/quota-display";
import { STORAGE_KEYS, syncLocalUser, writeItem, writeJson, type LocalUser } from "@/lib/client/storage";
import type { SiteStatus } from "@/lib/status/site-status";
import { Toaster } from "@/components/ui/toaster";

const StatusContext = createContext<SiteStatus | null>(null);
const SessionContext = createContext<LocalUser | null>(null);

function rememberStatus(s: SiteStatus) {
  writeJson(STORAGE_KEYS.status, s);
  writeItem(STORAGE_KEYS.systemName, s.system_name);
  writeItem(STORAGE_KEYS.logo, s.logo);
  writeItem(STORAGE_KEYS.footerHtml, s.footer_html);
  writeItem(STORAGE_KEYS.quotaPerUnit, String(s.quota_per_unit));
  writeItem(STORAGE_KEYS.displayInCurrency, String(s.display_in_currency));
  writeItem(STORAGE_KEYS.enableDataExport, String(s.enable_data_export));
  writeItem(STORAGE_KEYS.enableDrawing, String(s.enable_drawing));
  writeItem(STORAGE_KEYS.enableTask, String(s.enable_task));
  writeJson(STORAGE_KEYS.chats, s.chats);
}

// A refresh that fails without a message says "Failed to load status" (a network error: "Unable to connect to server").
const fetchStatus = (path: string) => api.get<SiteStatus>(path, { failed: "errors.statusLoadFailed" }).then((r) => r.data);

function StatusProvider({ initial, children }: { initial: SiteStatus; children: ReactNode }) {
  const { data } = useSWR<SiteStatus>("/api/status", fetchStatus, { fallbackData: initial, revalidateOnMount: false });
  const status = data ?? initial;
  useEffect(() => rememberStatus(status), [status]);
  return <StatusContext.Provider value={status}>{children}</StatusContext.Provider>;
}

// The server knows the session; the browser keeps a copy of the user for the New-Api-User
// header. Keep the copy in step with the session on every full page load. This happens
// during render, not in an effect: React runs the children's effects (their first fetches)
// before this component's, so a browser with a session cookie but no stored user would
// otherwise send its first calls without the header, get 401 and be sent to /login.
// Writing the same value again is harmless, so a repeated render is fine.
function SessionProvider({ user, children }: { user: LocalUser | null; children: ReactNode }) {
  syncLocalUser(user);
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

export function Providers({ status, user, children }: { status: SiteStatus; user: LocalUser | null; children: ReactNode }) {
  return (
    <SWRConfig value={{ fetcher: fetchData, shouldRetryOnError: false, revalidateOnFocus: false }}>
      <StatusProvider initial={status}>
        <SessionProvider user={user}>
          {children}
          <Toaster />
        </SessionProvider>
      </StatusProvider>
    </SWRConfig>
  );
}

export function useStatus(): SiteStatus {
  const s = useContext(StatusContext);
  if (!s) throw new Error("useStatus outside <Providers>");
  return s;
}

export function useSessionUser(): LocalUser | null {
  return useContext(SessionContext);
}

export function useQuotaDisplay(): QuotaDisplay {
  const s = useStatus();
  // the one display rule's settings (docs/console-ui.md, "Quota display")
  return quotaDisplayOf(s);
}

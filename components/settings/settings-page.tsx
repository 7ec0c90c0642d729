"use client";
// /admin/settings (docs/settings.md): the five tabs, kept in ?tab= (default operation), over
// the options GET /api/option/ lists for the caller. The frame (components/forms) indexes a
// long tab's sections, saves the changed ones from one sticky bar and asks before edits are
// left behind. Admin check: proxy.ts redirects non-admins; the tabs render only for
// a stored user with role >= 10, and only the tabs of their settings:<tab> permissions
// (docs/permissions.md).
import * as T from "@radix-ui/react-tabs";
import { RotateCw } from "lucide-react";
import { useTranslations } from "next-intl";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import useSWR from "swr";
import { OptionsProvider, SettingsBody, SettingsFrame, useSettingsFrame, type OptionsState } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Alert, PageTitle } from "@/components/ui/card";
import { fetchData } from "@/lib/client/api";
import { settingsPermission } from "@/lib/auth/permissions";
import { can, isAdminRole } from "@/lib/client/navigation";
import { useSessionUser } from "@/components/layout/providers";
import { ModelsTab } from "./models/models-tab";
import { OperationTab } from "./operation-tab";
import { OtherTab } from "./other-tab";
import { RateLimitTab } from "./ratelimit-tab";
import { SystemTab } from "./system-tab";
import { dict } from "@/lib/own-keys";

export const SETTINGS_TABS = ["operation", "ratelimit", "models", "system", "other"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

type Listed = { key: string; value: string; set?: boolean; writable: boolean };

export function SettingsPage() {
  const t = useTranslations("settings");
  const params = useSearchParams();
  const raw = params.get("tab");
  const user = useSessionUser();
  const role = user?.role ?? 0;
  // the tabs of the admin's settings permissions (settings:<tab>, docs/permissions.md): the root all
  const tabs = SETTINGS_TABS.filter((v) => can(user, settingsPermission(v)));
  const tab: SettingsTab = (tabs as readonly string[]).includes(raw ?? "") ? (raw as SettingsTab) : (tabs[0] ?? "operation");
  const tTable = useTranslations("dataTable");
  const { data, error, mutate, isValidating } = useSWR<Listed[]>(isAdminRole(role) ? "/api/option/" : null, fetchData, { revalidateOnFocus: false });

  const reload = useCallback(async () => {
    await mutate();
  }, [mutate]);
  const state = useMemo<OptionsState | null>(() => {
    if (!data) return null;
    const options = dict<string>();
    const secretsSet = dict<boolean>();
    const writable = dict<boolean>();
    for (const o of data) {
      if (o.set !== undefined) secretsSet[o.key] = o.set;
      else options[o.key] = o.value;
      writable[o.key] = o.writable;
    }
    return { options, secretsSet, writable, reload };
  }, [data, reload]);

  if (!isAdminRole(role)) return null;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      {/* the options are loading, or could not be fetched (the spec's 刷新失败, with a retry;
          the API's own reason was toasted by lib/client/api.ts) */}
      {!state && (!error || isValidating) && (
        <p role="status" className="flex items-center gap-2 py-10 text-sm text-zinc-500 dark:text-zinc-400">
          <RotateCw aria-hidden className="h-4 w-4 animate-spin" />
          {t("loading")}
        </p>
      )}
      {error && !isValidating && (
        <Alert tone="error">
          <span className="flex flex-wrap items-center gap-3">
            {t("loadFailed")}
            <Button size="sm" variant="secondary" onClick={() => void mutate()}>
              {tTable("retry")}
            </Button>
          </span>
        </Alert>
      )}
      {state && (
        <OptionsProvider value={state}>
          <SettingsFrame>
            <SettingsTabs tabs={tabs} tab={tab} options={state.options} reload={reload} />
          </SettingsFrame>
        </OptionsProvider>
      )}
    </div>
  );
}

// The tabs; leaving one with unsaved edits asks first (its sections unmount with it).
function SettingsTabs({
  tabs,
  tab,
  options,
  reload,
}: {
  tabs: readonly SettingsTab[];
  tab: SettingsTab;
  options: Record<string, string>;
  reload: () => Promise<void>;
}) {
  const t = useTranslations("settings");
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { confirmLeave } = useSettingsFrame();
  const select = async (value: string) => {
    if (!(await confirmLeave())) return;
    const next = new URLSearchParams(params.toString());
    next.set("tab", value);
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };
  return (
    <T.Root value={tab} onValueChange={(v) => void select(v)} className="flex flex-col gap-5">
      <T.List aria-label={t("title")} className="flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((v) => (
          <T.Trigger
            key={v}
            value={v}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm whitespace-nowrap text-zinc-600 outline-none focus-visible:ring-2 focus-visible:ring-blue-500/40 hover:text-zinc-900 data-[state=active]:border-blue-600 data-[state=active]:font-medium data-[state=active]:text-blue-700 dark:text-zinc-400 dark:hover:text-zinc-100 dark:data-[state=active]:text-blue-400"
          >
            {t(`tabs.${v}`)}
          </T.Trigger>
        ))}
      </T.List>
      <SettingsBody>
        {tabs.includes("operation") && (
          <T.Content value="operation">
            <OperationTab options={options} reload={reload} />
          </T.Content>
        )}
        {tabs.includes("ratelimit") && (
          <T.Content value="ratelimit">
            <RateLimitTab />
          </T.Content>
        )}
        {tabs.includes("models") && (
          <T.Content value="models">
            <ModelsTab />
          </T.Content>
        )}
        {tabs.includes("system") && (
          <T.Content value="system">
            <SystemTab />
          </T.Content>
        )}
        {tabs.includes("other") && (
          <T.Content value="other">
            <OtherTab />
          </T.Content>
        )}
      </SettingsBody>
    </T.Root>
  );
}

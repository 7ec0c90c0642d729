"use client";
// The other tab (docs/settings.md): system information with the update check, the
// announcement and personalization (with Footer; the display toggles are the operation tab's
// General). What these options change is built with the console shell (docs/options.md);
// this tab edits them.
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useState } from "react";
import { FieldGrid, OptionText, OptionTextarea, SettingsSection, useOptionsState } from "@/components/forms";
import { useStatus } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { api, ApiError } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { useLabel } from "./operation-tab";

const ReleaseNotes = dynamic(() => import("./release-notes"));

type UpdateInfo = { current_version: string; tag_name: string; body: string; update_available: boolean };

function SystemInfo() {
  const t = useTranslations("settings.other");
  const status = useStatus() as { version?: string; start_time?: number };
  // no release source by default (docs/settings.md): say so instead of a check that fails
  const hasSource = (useOptionsState().options.UpdateCheckUrl ?? "").trim() !== "";
  const [busy, setBusy] = useState(false);
  const [info, setInfo] = useState<UpdateInfo | null>(null);
  const check = async () => {
    setBusy(true);
    try {
      const res = await api.post<UpdateInfo>("/api/option/update_check", {}, { quiet: true });
      if (res.data.update_available) setInfo(res.data);
      else toast.success({ key: "settings.other.upToDate", values: { version: res.data.current_version } });
    } catch (e) {
      // the server's refusal (no source set, source unreachable) or, without an answer, the catalogue's
      if (e instanceof ApiError && e.failure.kind === "message") toast.error({ text: e.message });
      else toast.error({ key: "settings.other.updateFailed" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t("systemInfo")}>
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-zinc-500 dark:text-zinc-400">{t("version")}</dt>
          <dd className="font-mono text-zinc-900 dark:text-zinc-100" data-testid="app-version">
            {status.version ?? "-"}
          </dd>
        </div>
        <div>
          <dt className="text-zinc-500 dark:text-zinc-400">{t("startTime")}</dt>
          <dd className="text-zinc-900 dark:text-zinc-100">{status.start_time ? formatTimestamp(status.start_time) : "-"}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col gap-2">
        <Button variant="secondary" className="self-start" disabled={busy || !hasSource} onClick={check}>
          {t("checkUpdate")}
        </Button>
        {!hasSource && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-update-source">
            {t("noUpdateSource")}
          </p>
        )}
      </div>
      <Dialog
        open={info !== null}
        onOpenChange={(o) => !o && setInfo(null)}
        title={t("newVersion", { tag: info?.tag_name ?? "" })}
        description={t("currentVersion", { version: info?.current_version ?? "" })}
        footer={
          <Button variant="secondary" onClick={() => setInfo(null)}>
            {t("close")}
          </Button>
        }
      >
        <div className="max-h-[60vh] overflow-y-auto text-sm text-zinc-800 dark:text-zinc-200 [&_a]:text-blue-600 [&_a]:underline [&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 dark:[&_code]:bg-zinc-800 [&_h1]:mt-3 [&_h1]:mb-1 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:mb-1 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-1.5 [&_ul]:list-disc">
          <ReleaseNotes body={info?.body ?? ""} />
        </div>
      </Dialog>
    </Card>
  );
}

export function OtherTab() {
  const t = useTranslations("settings.other");
  const L = useLabel();
  return (
    <div className="flex flex-col gap-5">
      <SystemInfo />
      <SettingsSection title={t("notice")} keys={["Notice"]}>
        <OptionTextarea name="Notice" label={L("Notice")} hint={t("noticeHint")} rows={[4, 12]} />
      </SettingsSection>
      <SettingsSection
        title={t("personalization")}
        keys={["SystemName", "Logo", "HomePageContent", "About", "Footer", "custom_head_html", "global_css", "global_js"]}
      >
        <FieldGrid cols={2}>
          <OptionText name="SystemName" label={L("SystemName")} />
          <OptionText name="Logo" label={L("Logo")} placeholder="https://example.com/logo.png" hint={t("logoHint")} />
        </FieldGrid>
        <OptionTextarea name="HomePageContent" label={L("HomePageContent")} hint={t("contentHint")} rows={[4, 12]} />
        <OptionTextarea name="About" label={L("About")} hint={t("contentHint")} rows={[4, 12]} />
        <OptionTextarea name="Footer" label={L("Footer")} hint={t("footerHint")} rows={[2, 6]} />
        <OptionTextarea name="custom_head_html" label={L("custom_head_html")} hint={t("codeHint")} rows={[6, 12]} code />
        <OptionTextarea name="global_css" label={L("global_css")} rows={[6, 12]} code />
        <OptionTextarea name="global_js" label={L("global_js")} hint={t("codeHint")} rows={[6, 12]} code />
      </SettingsSection>
    </div>
  );
}

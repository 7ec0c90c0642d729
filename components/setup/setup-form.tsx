"use client";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { FormProvider } from "react-hook-form";
import { z } from "zod";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { RadioGroup } from "@/components/ui/radio-group";
import { api, ApiError } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { setupRoot } from "@/lib/setup/field-rules";
import { USERNAME_MAX } from "@/lib/users/field-rules";

type SetupStatus = { status: boolean; root_init: boolean; database_type: string };
type Mode = "external" | "self" | "demo";

const RELOAD_DELAY_MS = 1500;
const fetchSetup = (path: string) => api.get<SetupStatus>(path, { quiet: true }).then((r) => r.data);

type SetupValues = { username: string; password: string; confirmPassword: string };

export function SetupForm() {
  const t = useTranslations("setup");
  const { data, error } = useSWR("/api/setup", fetchSetup);
  // The root account's fields are checked only while there is no root to keep.
  const schema = useMemo(() => (data?.root_init ? z.any() : setupRoot), [data?.root_init]);
  const methods = useRuleForm<SetupValues>(schema, { username: "", password: "", confirmPassword: "" });
  const [mode, setMode] = useState<Mode>("external");
  const [explain, setExplain] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // Setup already done (another tab finished it): the home page.
  useEffect(() => {
    if (data?.status) window.location.assign("/");
  }, [data?.status]);

  if (error) return <Alert tone="error">{t("loadFailed")}</Alert>;
  if (!data) return <p className="text-sm text-zinc-500">{t("loading")}</p>;
  if (data.status) return null;

  async function submit(form: SetupValues) {
    setBusy(true);
    try {
      // Quiet: this page reports the failure itself, once (the server's reason when it gave
      // one, else "initialization failed, please retry").
      const r = await api.post(
        "/api/setup",
        {
          ...form,
          SelfUseModeEnabled: mode === "self",
          DemoSiteEnabled: mode === "demo",
        },
        { quiet: true },
      );
      toast.success(r.message ? { text: r.message } : { key: "setup.success" });
      setDone(true);
      // The new root is signed in (the answer set the session cookie): the home page shows
      // the first steps (docs/console-ui.md, "First steps").
      window.setTimeout(() => window.location.assign("/"), RELOAD_DELAY_MS);
    } catch (err) {
      if (err instanceof ApiError && err.failure.kind === "message") toast.error({ key: "errors.prefixed", values: { message: err.failure.text } });
      else toast.error({ key: "setup.failed" });
      setBusy(false);
    }
  }

  return (
    <FormProvider {...methods}>
      <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-5">
        {data.database_type === "sqlite" && (
          <Alert tone="warning">
            <strong className="block">{t("sqliteTitle")}</strong>
            {t("sqliteWarning")}
          </Alert>
        )}
        <Card title={t("adminTitle")}>
          {data.root_init ? (
            <Alert tone="info">{t("rootExists")}</Alert>
          ) : (
            <div className="flex flex-col gap-4">
              <FormText name="username" label={t("username")} autoComplete="username" maxLength={USERNAME_MAX} />
              <FormText name="password" label={t("password")} type="password" autoComplete="new-password" hint={t("passwordHint")} />
              <FormText name="confirmPassword" label={t("confirmPassword")} type="password" autoComplete="new-password" />
            </div>
          )}
        </Card>
        <Card
          title={t("modeTitle")}
          actions={
            <Button variant="ghost" size="sm" onClick={() => setExplain(true)}>
              {t("modeExplain")}
            </Button>
          }
        >
          <RadioGroup<Mode>
            legend={t("modeLegend")}
            value={mode}
            onChange={setMode}
            options={[
              { value: "external", label: t("mode.external") },
              { value: "self", label: t("mode.self") },
              { value: "demo", label: t("mode.demo") },
            ]}
          />
        </Card>
        <Button type="submit" disabled={busy || done} className="self-end">
          {t("initialize")}
        </Button>
        <Dialog
          open={explain}
          onOpenChange={setExplain}
          title={t("modeExplainTitle")}
          footer={<Button onClick={() => setExplain(false)}>{t("understood")}</Button>}
        >
          <dl className="flex flex-col gap-3 text-sm">
            {(["external", "self", "demo"] as const).map((m) => (
              <div key={m}>
                <dt className="font-medium text-zinc-900 dark:text-zinc-100">{t(`mode.${m}`)}</dt>
                <dd className="text-zinc-600 dark:text-zinc-400">{t(`modeDescription.${m}`)}</dd>
              </div>
            ))}
          </dl>
        </Dialog>
      </form>
    </FormProvider>
  );
}

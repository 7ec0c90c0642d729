"use client";
// /admin/plans (docs/console-ui.md, "Plans"): the subscription plans on the console's
// DataTable: create/edit drawer, enable/disable, delete after a confirmation, and each plan's
// subscribers (grant, revoke, reset the period).
import { useTranslations } from "next-intl";
import { Plus } from "lucide-react";
import { useState } from "react";
import useSWR from "swr";
import { DataTable, useClientPaging } from "@/components/data-table";
import { useConfirm } from "@/components/forms";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { can } from "@/lib/client/navigation";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { ADMIN_PLANS, planPath } from "./paths";
import { planColumns } from "./plan-columns";
import { PlanDrawer } from "./plan-drawer";
import { SubscribersDrawer } from "./subscribers-drawer";
import type { Plan } from "./types";

export function PlansPage() {
  // adding, editing, enabling, disabling and deleting a plan, and granting, revoking and
  // resetting a subscription, are writes (billing:write, docs/permissions.md)
  const write = can(useSessionUser(), "billing:write");
  const t = useTranslations("plans");
  const display = useQuotaDisplay();
  const { data, error, isLoading, isValidating, mutate } = useSWR<Plan[]>(ADMIN_PLANS);
  const { pageRows, paging } = useClientPaging(data);
  const [editing, setEditing] = useState<Plan | "new" | null>(null);
  const [viewing, setViewing] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Plan | null>(null);
  const confirm = useConfirm({
    title: t("deleteTitle"),
    description: pending ? t("deleteConfirm", { name: pending.name }) : "",
    action: t("delete"),
    danger: true,
  });

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
      void mutate();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const setEnabled = (p: Plan, enabled: boolean) =>
    run(async () => {
      await api.put(ADMIN_PLANS, { id: p.id, enabled }); // PUT changes the fields it is given
      toast.success({ key: enabled ? "plans.enabledToast" : "plans.disabledToast", values: { name: p.name } });
    });

  async function remove(p: Plan) {
    setPending(p);
    if (!(await confirm.ask())) return;
    await run(async () => {
      await api.del(planPath(p.id));
      toast.success({ key: "plans.deletedToast", values: { name: p.name } });
    });
  }

  const columns = planColumns({
    t,
    display,
    actions: { write, busy, setEnabled: (p, e) => void setEnabled(p, e), edit: setEditing, subscribers: setViewing, remove: (p) => void remove(p) },
  });

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle
        actions={
          write && (
            <Button onClick={() => setEditing("new")}>
              <Plus aria-hidden className="h-4 w-4" />
              {t("add")}
            </Button>
          )
        }
      >
        {t("title")}
      </PageTitle>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("intro")}</p>
      <DataTable<Plan>
        id="plans"
        columns={columns}
        rows={pageRows}
        getRowId={(p) => String(p.id)}
        loading={isLoading || isValidating}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(p) => ({ "data-testid": `plan-row-${p.id}`, className: p.enabled ? undefined : "opacity-60" })}
        paging={paging}
      />
      <PlanDrawer
        plan={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void mutate();
        }}
      />
      <SubscribersDrawer plan={viewing} write={write} onClose={() => setViewing(null)} />
      {confirm.dialog}
    </div>
  );
}

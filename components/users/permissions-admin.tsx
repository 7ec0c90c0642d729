"use client";
// The root's editor of an admin's permission set (docs/permissions.md), in the user editor:
// one group per area with a checkbox per level, the default set marked, saved by its own
// button through PUT /api/user/{id}/permissions. The change holds at once on the server; the
// admin's console hides what they lost at their next page load.
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { api, fetchData } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { DEFAULT_ADMIN_PERMISSIONS, PERMISSION_AREAS, PERMISSION_TABLE, type Permission } from "@/lib/auth/permissions";

type Answer = { id: number; role: number; permissions: Permission[]; is_default: boolean };

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));

export function PermissionsAdmin({ userId }: { userId: number }) {
  const t = useTranslations("permissions");
  const { data, mutate } = useSWR<Answer>(`/api/user/${userId}/permissions`, fetchData);
  const [chosen, setChosen] = useState<Permission[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data) setChosen(data.permissions);
  }, [data]);
  if (!data || !chosen) return null;
  const dirty = !sameSet(chosen, data.permissions);
  const isDefault = sameSet(chosen, DEFAULT_ADMIN_PERMISSIONS);

  const toggle = (p: Permission, on: boolean) => setChosen((c) => (on ? [...(c ?? []), p] : (c ?? []).filter((x) => x !== p)));

  async function save(set: readonly Permission[]) {
    setBusy(true);
    try {
      const r = await api.put<Answer>(`/api/user/${userId}/permissions`, { permissions: set });
      toast.success({ key: "permissions.saved" });
      void mutate(r.data, { revalidate: false });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`perm-title-${userId}`} className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`perm-title-${userId}`} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {t("title")}
        </h3>
        {isDefault ? <Badge color="gray">{t("defaultSet")}</Badge> : <Badge color="orange">{t("customSet")}</Badge>}
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("hint")}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {PERMISSION_AREAS.map((area) => (
          <fieldset key={area} className="flex flex-col gap-1">
            <legend className="mb-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">{t(`areas.${area}`)}</legend>
            {PERMISSION_TABLE.filter((p) => p.area === area).map((p) => (
              <label key={p.name} className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
                <input
                  type="checkbox"
                  name={p.name}
                  className="h-4 w-4 accent-blue-600"
                  checked={chosen.includes(p.name)}
                  onChange={(e) => toggle(p.name, e.target.checked)}
                />
                <span>{t(`levels.${p.name.replace(":", "_")}`)}</span>
                {!p.admin && <span className="text-xs text-zinc-400 dark:text-zinc-500">{t("widens")}</span>}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={busy || isDefault} onClick={() => setChosen([...DEFAULT_ADMIN_PERMISSIONS])}>
          {t("resetDefault")}
        </Button>
        <Button size="sm" disabled={busy || !dirty} onClick={() => void save(chosen)}>
          {t("save")}
        </Button>
      </div>
    </section>
  );
}

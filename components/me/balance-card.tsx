"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { useQuotaDisplay } from "@/components/layout/providers";
import { renderQuota } from "@/lib/client/format";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import type { User } from "@/lib/client/user";

const COLLAPSED_CHIPS = 10;

function ModelChips() {
  const t = useTranslations("me.balance");
  const { data: models } = useSWR<string[]>("/api/user/models");
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setExpanded(readItem(STORAGE_KEYS.modelsExpanded) === "true"), []);
  const toggle = () => {
    writeItem(STORAGE_KEYS.modelsExpanded, String(!expanded));
    setExpanded(!expanded);
  };
  if (!models) return <p className="text-sm text-zinc-500">{t("loadingModels")}</p>;
  if (models.length === 0) return <p className="text-sm text-zinc-500">{t("noModels")}</p>;
  const shown = expanded ? models : models.slice(0, COLLAPSED_CHIPS);
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      {shown.map((m) => (
        <Badge key={m} color="gray">
          {m}
        </Badge>
      ))}
      {models.length > COLLAPSED_CHIPS && (
        <Button variant="ghost" size="sm" onClick={toggle} aria-expanded={expanded}>
          {expanded ? t("collapse") : t("expand", { count: models.length - COLLAPSED_CHIPS })}
        </Button>
      )}
    </div>
  );
}

export function BalanceCard({ user }: { user: User }) {
  const t = useTranslations("me.balance");
  const display = useQuotaDisplay();
  return (
    <Card title={t("title")}>
      <div className="mb-5 grid grid-cols-3 gap-4">
        <Stat label={t("quota")} value={renderQuota(user.quota, display)} />
        <Stat label={t("usedQuota")} value={renderQuota(user.used_quota, display)} />
        <Stat label={t("requestCount")} value={user.request_count} />
      </div>
      <h3 className="mb-2 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("models")}</h3>
      <ModelChips />
    </Card>
  );
}

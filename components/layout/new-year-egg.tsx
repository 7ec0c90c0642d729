"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { isNewYearsDay } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";

// On 1 January the top bar carries a small festive button that wishes a happy new year.
export function NewYearEgg() {
  const t = useTranslations("shell");
  const [show, setShow] = useState(false);
  useEffect(() => setShow(isNewYearsDay(new Date())), []);
  if (!show) return null;
  return (
    <button
      type="button"
      onClick={() => toast.success({ key: "shell.happyNewYear" })}
      aria-label={t("happyNewYear")}
      title={t("happyNewYear")}
      className="animate-pulse rounded-md px-2 text-lg"
    >
      🎉
    </button>
  );
}

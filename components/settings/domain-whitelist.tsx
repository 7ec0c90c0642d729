"use client";
// The e-mail domain whitelist (comma-joined in EmailDomainWhitelist): the domains as chips
// with a remove button, and an input that adds one after the shared rule accepts it
// (lib/options/rules.ts: hostname shape, no duplicate), with the server's message.
import { X } from "lucide-react";
import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";
import { useController, useFormContext } from "react-hook-form";
import { fieldName, useOptionAccess } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { say } from "@/lib/i18n/render";
import { checkDomainToAdd } from "@/lib/options/rules";
import { toast } from "@/lib/client/toast";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

export function DomainWhitelist({ name, label }: { name: string; label: ReactNode }) {
  const t = useTranslations("settings.system");
  const catalogue = useServerCatalogue();
  const id = useId();
  const { control } = useFormContext<Record<string, string>>();
  const { field, fieldState } = useController({ control, name: fieldName(name) });
  const { visible, writable } = useOptionAccess(name);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (!visible) return null;
  const domains = field.value
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean);
  const add = () => {
    const check = checkDomainToAdd(field.value, draft);
    if (!check.ok) {
      setError(say(catalogue, check.key, check.params));
      return;
    }
    field.onChange([...domains, check.value].join(","));
    setDraft("");
    setError(null);
    toast.success({ key: "settings.system.whitelistAdded" });
  };
  const remove = (d: string) => field.onChange(domains.filter((x) => x !== d).join(","));
  const shown = error ?? fieldState.error?.message;
  return (
    <div className="flex flex-col gap-2" data-option-field>
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <ul className="flex flex-wrap gap-1.5" aria-label={typeof label === "string" ? label : undefined}>
        {domains.map((d) => (
          <li key={d} className="inline-flex items-center gap-1 rounded bg-zinc-100 px-2 py-0.5 text-sm text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
            {d}
            {writable && (
              <button type="button" aria-label={t("removeDomain", { domain: d })} onClick={() => remove(d)} className="text-zinc-500 hover:text-red-600">
                <X className="h-3.5 w-3.5" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {writable && (
        <div className="flex gap-2">
          <Input
            id={id}
            value={draft}
            placeholder="example.com"
            onChange={(e) => {
              setDraft(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
            className="w-64"
          />
          <Button variant="secondary" onClick={add}>
            {t("addDomain")}
          </Button>
        </div>
      )}
      {shown && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {shown}
        </p>
      )}
    </div>
  );
}

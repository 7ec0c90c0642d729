"use client";
import { useTranslations } from "next-intl";
import { BINDING_FIELDS, type User } from "@/lib/client/user";

// Third-party bindings, read-only (binding flows come with third-party sign-in).
export function Bindings({ user }: { user: Pick<User, (typeof BINDING_FIELDS)[number]> }) {
  const t = useTranslations("bindings");
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {BINDING_FIELDS.map((f) => (
        <div key={f} className="flex justify-between gap-3 border-b border-zinc-100 py-1.5 dark:border-zinc-800">
          <dt className="text-zinc-500 dark:text-zinc-400">{t(f)}</dt>
          <dd className="truncate text-zinc-900 dark:text-zinc-100">{user[f] || <span className="text-zinc-400">{t("none")}</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

import type { ReactNode } from "react";

// The narrow centred card of the login and register pages.
export function AuthCard({ title, children, footer }: { title: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-sm px-4 py-12">
      <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <h1 className="mb-5 text-center text-xl font-semibold text-zinc-900 dark:text-zinc-100">{title}</h1>
        {children}
      </div>
      {footer && <div className="mt-4 text-center text-sm text-zinc-600 dark:text-zinc-400">{footer}</div>}
    </div>
  );
}

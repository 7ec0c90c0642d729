"use client";
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useEffect, useState } from "react";
import { POWERED_BY, POWERED_BY_ROTATE_MS } from "@/lib/client/branding";
import { readItem, STORAGE_KEYS } from "@/lib/client/storage";
import { useStatus } from "./providers";

// The Markdown/HTML renderer (react-markdown, parse5, the sanitizer: about 95 kB gzipped) is a
// chunk of its own, fetched only by a site that has footer HTML (docs/console-ui.md, "Page weight").
const SafeHtml = dynamic(() => import("@/components/content/markdown").then((m) => m.SafeHtml));

const REFRESHES = 5;
const REFRESH_MS = 200;

// The admin's footer HTML (sanitized), or a rotating powered-by link. The
// footer re-reads the stored copy 5 times at 200 ms after load, so a status saved just now
// shows up (docs/console-ui.md, "Branding and announcement").
export function Footer() {
  const status = useStatus();
  const [html, setHtml] = useState(status.footer_html);
  useEffect(() => setHtml(status.footer_html), [status.footer_html]);
  useEffect(() => {
    let n = 0;
    const timer = window.setInterval(() => {
      const stored = readItem(STORAGE_KEYS.footerHtml);
      if (stored !== null) setHtml(stored);
      if (++n >= REFRESHES) window.clearInterval(timer);
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <footer className="border-t border-zinc-200 px-4 py-4 text-center text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
      {html.trim() ? <SafeHtml className="custom-footer [&_a]:text-blue-600 [&_a]:hover:underline dark:[&_a]:text-blue-400">{html}</SafeHtml> : <PoweredBy />}
    </footer>
  );
}

// "Powered by" and a link that rotates through the site itself and the projects it follows.
function PoweredBy() {
  const t = useTranslations("shell");
  const tc = useTranslations("common");
  const status = useStatus();
  const [i, setI] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setI((n) => (n + 1) % (POWERED_BY.length + 1)), POWERED_BY_ROTATE_MS);
    return () => window.clearInterval(timer);
  }, []);
  const linkClass = "text-blue-600 hover:underline dark:text-blue-400";
  const entry = i === 0 ? null : POWERED_BY[i - 1];
  return (
    <span data-testid="powered-by">
      {t("poweredBy")}{" "}
      {entry ? (
        <a href={entry.href} target="_blank" rel="noopener noreferrer" className={linkClass}>
          {entry.name}
        </a>
      ) : (
        <Link prefetch={false} href="/about" className={linkClass}>
          {status.system_name || tc("appName")}
          {status.version && ` ${status.version}`}
        </Link>
      )}
    </span>
  );
}

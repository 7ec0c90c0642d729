"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useEffect, useState } from "react";
import { readItem, STORAGE_KEYS } from "@/lib/client/storage";
import { useStatus } from "./providers";

const REFRESHES = 5;
const REFRESH_MS = 200;

// The admin's footer HTML, or a powered-by link. As in new-api, the footer re-reads the
// stored copy 5 times at 200 ms after load, so a status saved just now shows up.
export function Footer() {
  const t = useTranslations("shell");
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
      {html ? (
        // Written by the site's administrator in the settings; shown as they wrote it.
        <div className="custom-footer" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <span>
          {t("poweredBy")}{" "}
          <Link href="/about" className="text-blue-600 hover:underline dark:text-blue-400">
            {status.system_name || t("appName")}
          </Link>{" "}
          {status.version && <span>{status.version}</span>}
        </span>
      )}
    </footer>
  );
}

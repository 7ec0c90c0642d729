"use client";
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { localDay, noticeVisible } from "@/lib/client/branding";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";

// The Markdown renderer is fetched only when an announcement opens (docs/console-ui.md, "Page weight").
const SafeMarkdown = dynamic(() => import("@/components/content/markdown").then((m) => m.SafeMarkdown));

// Closed with "close" during this visit: not shown again until the next full page load.
let closedThisVisit = false;

// Where the announcement opens: the home page and the console's landing page.
const NOTICE_PATHS = new Set(["/", "/app/tokens"]);

// The administrator's announcement (option Notice, Markdown): a dialog on the home page and
// the console's landing page. "Close" hides it for this visit, "close for today" until the
// next local day (docs/console-ui.md, "Branding and announcement").
export function NoticeDialog({ notice }: { notice: string }) {
  const t = useTranslations("notice");
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpen(!closedThisVisit && NOTICE_PATHS.has(pathname) && noticeVisible(notice, readItem(STORAGE_KEYS.noticeCloseDate), new Date()));
  }, [notice, pathname]);
  const close = () => {
    closedThisVisit = true;
    setOpen(false);
  };
  const closeToday = () => {
    writeItem(STORAGE_KEYS.noticeCloseDate, localDay(new Date()));
    close();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? setOpen(true) : close())}
      title={t("title")}
      footer={
        <>
          <Button variant="secondary" onClick={closeToday}>
            {t("closeToday")}
          </Button>
          <Button onClick={close}>{t("close")}</Button>
        </>
      }
    >
      <SafeMarkdown className="md-content text-sm">{notice}</SafeMarkdown>
    </Dialog>
  );
}

"use client";
// Downloads a CSV answer of the console API through fetch (the statement, the audit log): the
// console's calls carry the New-Api-User header, which a plain link cannot send. Answers the
// number in the `capped` header (the rows the file was cut to, 0 when whole), or -1 when the
// call failed (already reported to the user).
import { useState } from "react";
import { reportFailure, requestHeaders } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export async function downloadCsv(path: string, fallbackName: string, cappedHeader: string): Promise<number> {
  const res = await fetch(path, { headers: requestHeaders(false), credentials: "same-origin" });
  if (!res.ok || !(res.headers.get("content-type") ?? "").startsWith("text/csv")) {
    let message = "";
    try {
      message = ((await res.json()) as { message?: string }).message ?? "";
    } catch {
      // not an envelope
    }
    reportFailure(res.status === 401 ? { kind: "expired" } : message ? { kind: "message", text: message } : { kind: "catalogue", key: "unknown" });
    return -1;
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Number(res.headers.get(cappedHeader) ?? "0");
}

/**
 * A list's export button (the statement, the audit log, the security events): the download
 * with the button disabled while it runs, then a toast saying whether the file was cut
 * (`toasts.capped`, with `rows`) or is whole (`toasts.done`).
 */
export function useCsvExport(cappedHeader: string, toasts: { capped: string; done: string }) {
  const [exporting, setExporting] = useState(false);
  async function exportCsv(path: string, fallbackName: string) {
    setExporting(true);
    try {
      const capped = await downloadCsv(path, fallbackName, cappedHeader);
      if (capped > 0) toast.warning({ key: toasts.capped, values: { rows: capped } });
      else if (capped === 0) toast.success({ key: toasts.done });
    } catch {
      reportFailure({ kind: "catalogue", key: "network" });
    } finally {
      setExporting(false);
    }
  }
  return { exporting, exportCsv };
}

"use client";
// The frame of the settings page (docs/settings.md, "The page"): the sections of the open tab
// register here, and the frame draws (through SettingsBody) the tab's section index (long
// tabs), one sticky save bar
// that saves every changed section, and the warnings before unsaved edits are lost (closing or
// reloading the page, a link to another page, and, through `confirmLeave`, another tab).
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { mergeSaveResults, type SaveResult } from "@/lib/client/save-options";
import { toast } from "@/lib/client/toast";
import { useOptionsState } from "./options-context";
import { toastSaveResult } from "./put-option";
import { useConfirm } from "./use-confirm";
import type { OptionSection } from "./use-option-section";

/** A tab with at least this many sections gets an index. */
export const INDEX_MIN_SECTIONS = 4;

type Entry = { anchor: string; title: string; dirty: boolean };
type Handle = Pick<OptionSection, "save" | "discard">;

type Frame = {
  /** the open tab's sections, in the order of the page */
  entries: Entry[];
  /** a section's title and state */
  put: (entry: Entry, handle: Handle) => void;
  remove: (anchor: string) => void;
  /** saves every changed section (a section's form submitted by Enter lands here too) */
  saveAll: () => Promise<void>;
  saving: boolean;
  /** asks before unsaved edits are left behind: true when there are none or the user agrees */
  confirmLeave: () => Promise<boolean>;
};

const FrameContext = createContext<Frame | null>(null);
// The key of the history entry that holds Back while edits are unsaved.
const HISTORY_GUARD = "settingsUnsaved";

export function useSettingsFrame(): Frame {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error("useSettingsFrame outside <SettingsFrame>");
  return frame;
}

export function SettingsFrame({ children }: { children: ReactNode }) {
  const t = useTranslations("settingsKit");
  const router = useRouter();
  const { reload } = useOptionsState();
  const [entries, setEntries] = useState<Entry[]>([]);
  const handles = useRef(new Map<string, Handle>());
  const [saving, setSaving] = useState(false);
  const dirty = entries.filter((e) => e.dirty);
  const dirtyTitles = dirty.map((e) => e.title).join(t("listSeparator"));
  const leave = useConfirm({
    title: t("leaveTitle"),
    description: t("leaveText", { sections: dirtyTitles }),
    action: t("leaveAction"),
    danger: true,
  });

  const put = useCallback((entry: Entry, handle: Handle) => {
    handles.current.set(entry.anchor, handle);
    setEntries((list) => {
      const i = list.findIndex((e) => e.anchor === entry.anchor);
      if (i < 0) return sortByPage([...list, entry]);
      const old = list[i];
      if (old.title === entry.title && old.dirty === entry.dirty) return list;
      return list.map((e, j) => (j === i ? entry : e));
    });
  }, []);
  const remove = useCallback((anchor: string) => {
    handles.current.delete(anchor);
    setEntries((list) => list.filter((e) => e.anchor !== anchor));
  }, []);

  // read by the callbacks below, which stay the same across renders
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  });
  const saveAll = useCallback(async () => {
    const changed = dirtyRef.current;
    if (changed.length === 0) {
      toast.warning({ key: "settingsKit.unchanged" });
      return;
    }
    setSaving(true);
    try {
      const results: SaveResult[] = [];
      let invalid = false;
      // one section after another: the kit's order rules hold within a section (save-options.ts)
      for (const e of changed) {
        const outcome = await handles.current.get(e.anchor)?.save();
        if (outcome === "invalid") invalid = true;
        else if (outcome) results.push(outcome);
      }
      if (invalid) toast.error({ key: "settingsKit.checkInput" });
      const merged = mergeSaveResults(results);
      if (merged.unchanged) {
        if (!invalid) toast.warning({ key: "settingsKit.unchanged" });
        return;
      }
      toastSaveResult(merged);
      try {
        await reload();
      } catch {
        toast.error({ key: "settingsKit.refreshFailed" });
      }
    } finally {
      setSaving(false);
    }
  }, [reload]);

  const discardAll = () => {
    for (const e of dirtyRef.current) handles.current.get(e.anchor)?.discard();
  };

  const { ask } = leave;
  const confirmLeave = useCallback(async () => dirtyRef.current.length === 0 || (await ask()), [ask]);

  // Closing or reloading the tab: the browser's own question.
  const hasDirty = dirty.length > 0;
  useEffect(() => {
    if (!hasDirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [hasDirty]);

  // The browser's Back button: while edits are unsaved, an entry of the same address sits on
  // top of the history. Back leaves that entry (the page stays), the question is asked, and
  // either the history goes on back or the entry is put back. Once the edits are saved or
  // dropped on the page, the entry stays but stops guarding (going back from it would be a
  // navigation of its own, racing a reload or a link the user starts right after saving); the
  // next unsaved edit guards it again instead of adding another one.
  useEffect(() => {
    if (!hasDirty) return;
    const state = () => (window.history.state as Record<string, unknown> | null) ?? {};
    const mark = (value: boolean) => ({ ...state(), [HISTORY_GUARD]: value });
    const guarded = () => state()[HISTORY_GUARD] === true;
    const guard = () => {
      if (state()[HISTORY_GUARD] === false) window.history.replaceState(mark(true), "", window.location.href);
      else window.history.pushState(mark(true), "", window.location.href);
    };
    if (!guarded()) guard();
    let leaving = false;
    const onPop = () => {
      if (leaving || guarded()) return;
      void (async () => {
        if (await confirmLeave()) {
          leaving = true;
          window.history.back();
        } else guard();
      })();
    };
    window.addEventListener("popstate", onPop);
    return () => {
      window.removeEventListener("popstate", onPop);
      if (!leaving && guarded()) window.history.replaceState(mark(false), "", window.location.href);
    };
  }, [hasDirty, confirmLeave]);

  // A link to another page of the console (sidebar, top bar, menus): caught before the
  // router sees it, and followed only when the user agrees to drop the edits.
  useEffect(() => {
    if (!hasDirty) return;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      const here = window.location;
      if (to.origin !== here.origin || (to.pathname === here.pathname && to.search === here.search)) return;
      e.preventDefault();
      e.stopPropagation();
      void (async () => {
        if (await confirmLeave()) router.push(to.pathname + to.search + to.hash);
      })();
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [hasDirty, confirmLeave, router]);

  const frame = useMemo<Frame>(() => ({ entries, put, remove, saveAll, saving, confirmLeave }), [entries, put, remove, saveAll, saving, confirmLeave]);
  return (
    <FrameContext.Provider value={frame}>
      {children}
      {entries.length > 0 && (
        <div
          data-testid="settings-save-bar"
          role="region"
          aria-label={t("saveBar")}
          className="sticky bottom-3 z-20 mt-5 rounded-lg border border-zinc-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur dark:border-zinc-700 dark:bg-zinc-900/95"
        >
          <div className="flex flex-wrap items-center gap-3">
            <p role="status" className="min-w-0 flex-1 basis-full text-sm text-zinc-600 sm:basis-0 dark:text-zinc-300">
              {hasDirty ? t("unsaved", { count: dirty.length, sections: dirtyTitles }) : t("allSaved")}
            </p>
            <Button variant="secondary" disabled={!hasDirty || saving} onClick={discardAll}>
              {t("discard")}
            </Button>
            <Button disabled={!hasDirty || saving} onClick={() => void saveAll()}>
              {t("save")}
            </Button>
          </div>
        </div>
      )}
      {leave.dialog}
    </FrameContext.Provider>
  );
}

// The tab's sections beside their index (a long tab's): a column at the right from the lg
// width, above the sections below it (under the tab list, which stays outside).
export function SettingsBody({ children }: { children: ReactNode }) {
  const t = useTranslations("settingsKit");
  const { entries } = useSettingsFrame();
  const indexed = entries.length >= INDEX_MIN_SECTIONS;
  return (
    <div className={cn("grid gap-5", indexed && "lg:grid-cols-[minmax(0,1fr)_13rem]")}>
      <div className="min-w-0">{children}</div>
      {indexed && <SectionIndex entries={entries} label={t("index")} unsavedLabel={t("unsavedMark")} />}
    </div>
  );
}

// The sections in the order of the page (a section that appears later, as a sub-tab's, takes
// its place among the others).
function sortByPage(list: Entry[]): Entry[] {
  if (typeof document === "undefined") return list;
  const at = (e: Entry) => document.getElementById(e.anchor);
  return [...list].sort((a, b) => {
    const x = at(a);
    const y = at(b);
    if (!x || !y) return 0;
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

function SectionIndex({ entries, label, unsavedLabel }: { entries: Entry[]; label: string; unsavedLabel: string }) {
  return (
    <nav aria-label={label} className="order-first lg:order-none">
      <div className="lg:sticky lg:top-20">
        <h2 className="mb-2 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{label}</h2>
        <ul className="flex flex-wrap gap-1.5 lg:flex-col lg:gap-0.5">
          {entries.map((e) => (
            <li key={e.anchor} className="max-w-full">
              <a
                href={`#${e.anchor}`}
                onClick={(ev) => {
                  ev.preventDefault();
                  // a section on a hidden sub-tab (the JSON price editors): its nearest shown holder
                  let target = document.getElementById(e.anchor);
                  while (target && target.getClientRects().length === 0) target = target.parentElement;
                  target?.scrollIntoView({ behavior: "smooth", block: "start" });
                }}
                className="flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 lg:border-0 dark:border-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
              >
                <span className="min-w-0 break-words">{e.title}</span>
                {e.dirty && <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-amber-500" role="img" aria-label={unsavedLabel} title={unsavedLabel} />}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

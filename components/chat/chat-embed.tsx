"use client";
// /chat/{id} (docs/chat.md): the admin's chat link number {id} with one of the user's usable
// tokens filled in. An http(s) link is framed; an app link (cherrystudio://, aionui://, ...)
// is opened, which hands it to the app, and the page offers to open it again; any other
// link (javascript:, data:, a bare word) is refused as misconfigured. No usable
// token: the message, then /app/tokens after 1.5 s. A broken entry: contact the admin.
import { ExternalLink, MessageSquareWarning } from "lucide-react";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useStatus } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import {
  chatEntry,
  chatLinkKind,
  chatServerAddress,
  firstUsableToken,
  needsKey,
  NO_TOKEN_REDIRECT_MS,
  pageChats,
  resolveChatLink,
  type ChatEntry,
  type ChatToken,
} from "@/lib/client/chat-link";
import { toast } from "@/lib/client/toast";

type View =
  | { kind: "loading" }
  | { kind: "frame"; name: string; url: string }
  | { kind: "app"; name: string; url: string }
  | { kind: "noToken" }
  | { kind: "broken" }
  | { kind: "failed" };

async function usableKey(): Promise<string | null> {
  const { data } = await api.get<{ items: ChatToken[] }>("/api/token/?p=0&size=100");
  const token = firstUsableToken(data.items);
  if (!token) return null;
  const { data: revealed } = await api.post<{ key: string }>(`/api/token/${token.id}/key`);
  return revealed.key;
}

export function ChatEmbed({ id }: { id: string }) {
  const t = useTranslations("chat");
  const status = useStatus();
  const router = useRouter();
  const [view, setView] = useState<View>({ kind: "loading" });

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    (async () => {
      const { chats, broken } = pageChats(status.chats);
      if (broken) toast.error({ key: "chat.parseFailed" });
      const index = /^\d{1,4}$/.test(id) ? Number(id) : -1;
      const entry: ChatEntry | null = index >= 0 ? chatEntry(chats[index]) : null;
      if (!entry) {
        toast.error({ key: "chat.contactAdmin" });
        setView({ kind: "broken" });
        return;
      }
      let key = "";
      if (needsKey(entry.link)) {
        try {
          const found = await usableKey();
          if (!live) return;
          if (!found) {
            toast.error({ key: "chat.noToken" });
            setView({ kind: "noToken" });
            timer = setTimeout(() => router.push("/app/tokens"), NO_TOKEN_REDIRECT_MS);
            return;
          }
          key = found;
        } catch {
          if (live) setView({ kind: "failed" }); // reported by the API helper
          return;
        }
      }
      const url = resolveChatLink(entry.link, key, chatServerAddress(status.server_address, window.location.origin));
      const kind = chatLinkKind(url);
      if (kind === null) {
        // javascript:, data:, a bare word...: never assigned to window.location
        toast.error({ key: "chat.contactAdmin" });
        setView({ kind: "broken" });
      } else if (kind === "web") setView({ kind: "frame", name: entry.name, url });
      else {
        setView({ kind: "app", name: entry.name, url });
        window.location.href = url;
      }
    })();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
    // the status's chats and address are read once per page (the server-rendered status, not the
    // browser's stored copy): a change of the option shows on the next full load
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, router]);

  if (view.kind === "frame") {
    return (
      <iframe src={view.url} title={view.name} data-testid="chat-frame" className="block h-[calc(100vh-3.5rem)] w-full border-0" allow="clipboard-write" />
    );
  }
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-16 text-center" data-testid="chat-state" data-kind={view.kind}>
      {view.kind === "loading" && (
        <p role="status" className="text-sm text-zinc-500">
          {t("loading")}
        </p>
      )}
      {view.kind === "app" && (
        <>
          <ExternalLink aria-hidden className="h-10 w-10 text-blue-600" />
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("appOpened", { name: view.name })}</p>
          <Button onClick={() => (window.location.href = view.url)}>{t("openAgain", { name: view.name })}</Button>
        </>
      )}
      {(view.kind === "noToken" || view.kind === "broken" || view.kind === "failed") && (
        <>
          <MessageSquareWarning aria-hidden className="h-10 w-10 text-amber-500" />
          <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
            {view.kind === "noToken" ? t("noToken") : view.kind === "broken" ? t("contactAdmin") : t("failed")}
          </p>
        </>
      )}
    </div>
  );
}

"use client";
// /chat2link (docs/chat.md): goes to the first chat (/chat/0); without one, contact the admin.
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useStatus } from "@/components/layout/providers";
import { chatEntry, pageChats } from "@/lib/client/chat-link";
import { toast } from "@/lib/client/toast";

export function ChatRedirect() {
  const t = useTranslations("chat");
  const status = useStatus();
  const router = useRouter();
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    const { chats, broken: unparsable } = pageChats(status.chats);
    if (unparsable) toast.error({ key: "chat.parseFailed" });
    if (chatEntry(chats[0])) router.replace("/chat/0");
    else {
      toast.error({ key: "chat.contactAdmin" });
      setBroken(true);
    }
    // read once per page, from the status (not the browser's stored copy, which may be older)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [router]);
  return (
    <p role={broken ? "alert" : "status"} className="px-4 py-16 text-center text-sm text-zinc-600 dark:text-zinc-400">
      {broken ? t("contactAdmin") : t("redirecting")}
    </p>
  );
}

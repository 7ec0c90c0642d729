"use client";
// The wallet's two tabs (docs/redemptions.md, "Wallet page"): online top-up with the order
// history, and the statement. The address's `?tab=` chooses the tab (`topup`, the default, or
// `statement`), so a link to `/app/wallet?tab=topup` switches it; choosing a tab writes it
// back to the address without reloading the page.
import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { Tabs } from "@/components/ui/tabs";
import { StatementSection } from "./statement-section";
import { TopUpSection } from "./topup-section";

export type WalletTab = "topup" | "statement";
export const walletTab = (v: string | null | undefined): WalletTab => (v === "statement" ? "statement" : "topup");

export function WalletTabs() {
  const t = useTranslations();
  const params = useSearchParams();
  const tab = walletTab(params.get("tab"));
  function choose(v: string) {
    const next = new URLSearchParams(params.toString());
    next.set("tab", walletTab(v));
    window.history.replaceState(null, "", `?${next.toString()}`);
  }
  return (
    <Tabs
      value={tab}
      onValueChange={choose}
      items={[
        { value: "topup", label: t("payments.title"), content: <TopUpSection /> },
        { value: "statement", label: t("statement.title"), content: <StatementSection /> },
      ]}
    />
  );
}

"use client";
import { useTranslations } from "next-intl";
import { PageTitle } from "@/components/ui/card";
import { useStatus } from "@/components/layout/providers";
import { AccountCard } from "./account-card";
import { BalanceCard } from "./balance-card";
import { CheckInCard } from "./check-in-card";
import { InvitationCard } from "./invitation-card";
import { ProfileHeader } from "./profile-header";
import { SecurityCard } from "./security-card";
import { SecurityEventsCard } from "./security-events-card";
import { SessionsCard } from "./sessions-card";
import { SettingsCard } from "./settings-card";
import { useSelf } from "./use-self";

export function MePage() {
  const t = useTranslations("me");
  const status = useStatus();
  const { data: user, error, mutate } = useSelf();
  const reload = () => void mutate();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      {error && !user && <p className="text-sm text-red-600">{t("loadFailed")}</p>}
      {!user && !error && <p className="text-sm text-zinc-500">{t("loading")}</p>}
      {user && (
        <div className="flex flex-col gap-5">
          <ProfileHeader user={user} />
          <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
            <BalanceCard user={user} />
            <div className="flex flex-col gap-5">
              {status.check_in_enabled && <CheckInCard onCheckedIn={reload} />}
              {status.aff_enabled && <InvitationCard user={user} onChanged={reload} />}
            </div>
          </div>
          <AccountCard user={user} onChanged={reload} />
          <SecurityCard />
          <SessionsCard />
          <SecurityEventsCard />
          <SettingsCard user={user} onSaved={reload} />
        </div>
      )}
    </div>
  );
}

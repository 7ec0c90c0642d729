"use client";
// The system tab (docs/settings.md): network, payment, sign-in, mail and the human check.
// Almost every key here is the root's (lib/options/access.ts); an admin sees them disabled.
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import {
  FieldGrid,
  OptionJson,
  OptionNumber,
  OptionSecret,
  OptionSelect,
  OptionSwitch,
  OptionText,
  SettingsSection,
  useConfirm,
  useOptionsState,
} from "@/components/forms";
import { Alert } from "@/components/ui/card";
import { DomainWhitelist } from "./domain-whitelist";
import { OAuthAddressWarning } from "./oauth-address-warning";
import { OidcSection } from "./oidc-section";
import { TestMail } from "./test-mail";
import { useLabel } from "./operation-tab";

function OAuthSection({ title, prefix, trust }: { title: string; prefix: "GitHub" | "LinuxDO" | "IDCFlare"; trust?: boolean }) {
  const L = useLabel();
  const keys: OptionKey[] = [`${prefix}OAuthEnabled`, `${prefix}ClientId`, `${prefix}ClientSecret`];
  if (trust && prefix !== "GitHub") keys.push(`${prefix}MinimumTrustLevel`);
  return (
    <SettingsSection title={title} keys={keys}>
      <OptionSwitch name={`${prefix}OAuthEnabled`} label={L(`${prefix}OAuthEnabled`)} />
      <OAuthAddressWarning enabledKey={`${prefix}OAuthEnabled`} />
      <FieldGrid>
        <OptionText name={`${prefix}ClientId`} label={L("ClientId")} />
        <OptionSecret name={`${prefix}ClientSecret`} label={L("ClientSecret")} />
        {trust && <OptionNumber name={`${prefix}MinimumTrustLevel`} label={L("MinimumTrustLevel")} />}
      </FieldGrid>
    </SettingsSection>
  );
}

export function SystemTab() {
  const t = useTranslations("settings.system");
  const L = useLabel();
  const { options } = useOptionsState();
  const { ask: askPasswordOff, dialog: passwordDialog } = useConfirm({ title: t("passwordOffTitle"), description: t("passwordOffText"), danger: true });
  const noServerAddress = (options.ServerAddress ?? "").trim() === "";
  return (
    <div className="flex flex-col gap-5">
      <SettingsSection title={t("general")} keys={["ServerAddress", "UpdateCheckUrl", "fetch_setting.allow_private_ip"]}>
        <FieldGrid cols={2}>
          <OptionText name="ServerAddress" label={L("ServerAddress")} type="url" placeholder="https://gateway.example.com" hint={t("serverAddressHint")} />
          <OptionText name="UpdateCheckUrl" label={L("UpdateCheckUrl")} type="url" placeholder="https://" hint={t("updateCheckUrlHint")} />
        </FieldGrid>
        <OptionSwitch name="fetch_setting.allow_private_ip" label={L("fetch_setting.allow_private_ip")} hint={t("privateIpHint")} />
      </SettingsSection>

      <SettingsSection title={t("reverseProxy")} keys={["ReverseProxyEnabled", "ReverseProxyProvider"]}>
        <OptionSwitch name="ReverseProxyEnabled" label={L("ReverseProxyEnabled")} hint={t("reverseProxyHint")} />
        <FieldGrid cols={2}>
          <OptionSelect
            name="ReverseProxyProvider"
            label={L("ReverseProxyProvider")}
            choices={[
              { value: "nginx", label: "nginx (X-Forwarded-For)" },
              { value: "cloudflare", label: "Cloudflare (CF-Connecting-IP)" },
            ]}
          />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("worker")} keys={["WorkerUrl", "WorkerValidKey"]}>
        <FieldGrid cols={2}>
          <OptionText name="WorkerUrl" label={L("WorkerUrl")} type="url" placeholder="https://" hint={t("workerHint")} />
          <OptionSecret name="WorkerValidKey" label={L("WorkerValidKey")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("payment")} keys={["PayAddress", "EpayId", "EpayKey", "Price", "MinTopUp", "TopupGroupRatio", "CustomCallbackAddress"]}>
        {noServerAddress && <Alert tone="warning">{t("paymentNeedsServerAddress")}</Alert>}
        <FieldGrid>
          <OptionText name="PayAddress" label={L("PayAddress")} type="url" placeholder="https://" />
          <OptionText name="EpayId" label={L("EpayId")} />
          <OptionSecret name="EpayKey" label={L("EpayKey")} />
          <OptionNumber name="Price" label={L("Price")} step={0.01} hint={t("priceHint")} />
          <OptionNumber name="MinTopUp" label={L("MinTopUp")} />
          <OptionText name="CustomCallbackAddress" label={L("CustomCallbackAddress")} type="url" placeholder="https://" hint={t("callbackHint")} />
        </FieldGrid>
        <OptionJson name="TopupGroupRatio" label={L("TopupGroupRatio")} rows={6} />
      </SettingsSection>

      <SettingsSection title={t("stripe")} keys={["StripeApiSecret", "StripeWebhookSecret", "StripePriceId", "StripeUnitPrice", "StripeMinTopUp"]}>
        {noServerAddress && <Alert tone="warning">{t("paymentNeedsServerAddress")}</Alert>}
        <p className="text-sm text-zinc-500">{t("stripeHint", { address: (options.ServerAddress ?? "").trim() || "https://…" })}</p>
        <FieldGrid>
          <OptionSecret name="StripeApiSecret" label={L("StripeApiSecret")} />
          <OptionSecret name="StripeWebhookSecret" label={L("StripeWebhookSecret")} />
          <OptionText name="StripePriceId" label={L("StripePriceId")} placeholder="price_…" hint={t("stripePriceIdHint")} />
          <OptionNumber name="StripeUnitPrice" label={L("StripeUnitPrice")} step={0.01} />
          <OptionNumber name="StripeMinTopUp" label={L("StripeMinTopUp")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection
        title={t("login")}
        keys={["PasswordLoginEnabled", "PasswordRegisterEnabled", "EmailVerificationEnabled", "RegisterEnabled", "PasskeyLoginEnabled"]}
      >
        <FieldGrid cols={2}>
          <OptionSwitch name="PasswordLoginEnabled" label={L("PasswordLoginEnabled")} confirm={async (next) => next || (await askPasswordOff())} />
          <OptionSwitch name="PasswordRegisterEnabled" label={L("PasswordRegisterEnabled")} />
          <OptionSwitch name="EmailVerificationEnabled" label={L("EmailVerificationEnabled")} />
          <OptionSwitch name="RegisterEnabled" label={L("RegisterEnabled")} />
          <OptionSwitch name="PasskeyLoginEnabled" label={L("PasskeyLoginEnabled")} hint={t("passkeyHint")} />
        </FieldGrid>
        {passwordDialog}
      </SettingsSection>

      <SettingsSection title={t("whitelist")} keys={["EmailDomainRestrictionEnabled", "EmailAliasRestrictionEnabled", "EmailDomainWhitelist"]}>
        <FieldGrid cols={2}>
          <OptionSwitch name="EmailDomainRestrictionEnabled" label={L("EmailDomainRestrictionEnabled")} />
          <OptionSwitch name="EmailAliasRestrictionEnabled" label={L("EmailAliasRestrictionEnabled")} />
        </FieldGrid>
        <DomainWhitelist name="EmailDomainWhitelist" label={L("EmailDomainWhitelist")} />
      </SettingsSection>

      <SettingsSection title={t("smtp")} keys={["SMTPServer", "SMTPPort", "SMTPAccount", "SMTPFrom", "SMTPToken", "SMTPSSLEnabled"]} actions={<TestMail />}>
        <FieldGrid>
          <OptionText name="SMTPServer" label={L("SMTPServer")} placeholder="smtp.example.com" />
          <OptionNumber name="SMTPPort" label={L("SMTPPort")} />
          <OptionText name="SMTPAccount" label={L("SMTPAccount")} />
          <OptionText name="SMTPFrom" label={L("SMTPFrom")} />
          <OptionSecret name="SMTPToken" label={L("SMTPToken")} />
        </FieldGrid>
        <OptionSwitch name="SMTPSSLEnabled" label={L("SMTPSSLEnabled")} />
      </SettingsSection>

      <OidcSection />
      <OAuthSection title="GitHub" prefix="GitHub" />
      <OAuthSection title="Linux DO" prefix="LinuxDO" trust />
      <OAuthSection title="IDC Flare" prefix="IDCFlare" trust />

      <SettingsSection title={t("wechat")} keys={["WeChatAuthEnabled", "WeChatServerAddress", "WeChatServerToken", "WeChatAccountQRCodeImageURL"]}>
        <OptionSwitch name="WeChatAuthEnabled" label={L("WeChatAuthEnabled")} />
        <FieldGrid>
          <OptionText name="WeChatServerAddress" label={L("WeChatServerAddress")} type="url" placeholder="https://" />
          <OptionSecret name="WeChatServerToken" label={L("WeChatServerToken")} />
          <OptionText name="WeChatAccountQRCodeImageURL" label={L("WeChatAccountQRCodeImageURL")} type="url" placeholder="https://" />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title="Telegram" keys={["TelegramOAuthEnabled", "TelegramBotToken", "TelegramBotName"]}>
        <OptionSwitch name="TelegramOAuthEnabled" label={L("TelegramOAuthEnabled")} />
        <FieldGrid cols={2}>
          <OptionSecret name="TelegramBotToken" label={L("TelegramBotToken")} />
          <OptionText name="TelegramBotName" label={L("TelegramBotName")} />
        </FieldGrid>
      </SettingsSection>

      <SettingsSection title={t("turnstile")} keys={["TurnstileCheckEnabled", "TurnstileSiteKey", "TurnstileSecretKey"]}>
        <OptionSwitch name="TurnstileCheckEnabled" label={L("TurnstileCheckEnabled")} />
        <FieldGrid cols={2}>
          <OptionText name="TurnstileSiteKey" label={L("TurnstileSiteKey")} />
          <OptionSecret name="TurnstileSecretKey" label={L("TurnstileSecretKey")} />
        </FieldGrid>
      </SettingsSection>
    </div>
  );
}

// The token drawer's form: its values (strings as typed), the schema that checks them with
// the server's rules (lib/tokens/field-rules.ts) and messages, and the request body.
import { z } from "zod";
import type { QuotaDisplay } from "@/lib/client/format";
import { blankLimitTexts, LIMIT_FIELD_LIST, limitTexts, limitValues, parseLimitTexts, type LimitField } from "@/lib/client/limits";
import { parseExpiry, DEFAULT_TOKEN_QUOTA, RATE_LIMIT_DEFAULTS, toLocalInput } from "@/lib/client/tokens";
import { splitList } from "@/lib/channels/split-list";
import { say, type MessageKey, type ServerCatalogue } from "@/lib/i18n/render";
import { batchCountRefusal, expiryRefusal, quotaRefusal, tokenFields, tokenNameRefusal } from "@/lib/tokens/field-rules";
import type { Token } from "./types";
import { nowSeconds } from "@/lib/time";

export type TokenForm = {
  name: string;
  count: string;
  remain_quota: string;
  unlimited_quota: boolean;
  expiry: string;
  rate_limit_enabled: boolean;
  rate_limit_period: string;
  rate_limit_count: string;
  rate_limit_success: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  group: string;
} & Record<LimitField, string>; // the limits as typed: quotas in the display unit, blank = none

/** How quotas are typed when the caller does not say: quota units. */
const UNITS: QuotaDisplay = { displayInCurrency: false, quotaPerUnit: 500000 };

export const blankTokenForm = (): TokenForm => ({
  name: "",
  count: "1",
  remain_quota: String(DEFAULT_TOKEN_QUOTA),
  unlimited_quota: false,
  expiry: "",
  rate_limit_enabled: false,
  rate_limit_period: String(RATE_LIMIT_DEFAULTS.period),
  rate_limit_count: String(RATE_LIMIT_DEFAULTS.count),
  rate_limit_success: String(RATE_LIMIT_DEFAULTS.success),
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: "",
  group: "",
  ...blankLimitTexts(),
});

export function tokenToForm(tok: Token, display: QuotaDisplay = UNITS): TokenForm {
  return {
    name: tok.name,
    count: "1",
    remain_quota: String(tok.remain_quota),
    unlimited_quota: tok.unlimited_quota,
    expiry: tok.expired_time === -1 ? "" : toLocalInput(tok.expired_time),
    rate_limit_enabled: tok.rate_limit_enabled,
    rate_limit_period: String(tok.rate_limit_period),
    rate_limit_count: String(tok.rate_limit_count),
    rate_limit_success: String(tok.rate_limit_success),
    model_limits_enabled: tok.model_limits_enabled,
    model_limits: splitList(tok.model_limits),
    allow_ips: tok.allow_ips,
    group: tok.group,
    ...limitTexts(limitValues(tok), display),
  };
}

const RATE_FIELDS = ["rate_limit_period", "rate_limit_count", "rate_limit_success"] as const;

/**
 * The drawer's schema. `storedExpiry` is the edited token's expiry (null when creating): an
 * unchanged expiry is not checked against now, as the server does not (docs/console-ui.md,
 * "Token edit").
 */
export function tokenFormSchema(
  catalogue: ServerCatalogue,
  storedExpiry: number | null,
  now: () => number = () => nowSeconds(),
  display: QuotaDisplay = UNITS,
) {
  const msg = (key: MessageKey, params?: Record<string, string | number>) => say(catalogue, key, params);
  return z.custom<TokenForm>().superRefine((f, ctx) => {
    const refuse = (path: keyof TokenForm, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const name = tokenNameRefusal(f.name);
    if (name) refuse("name", msg(name));
    if (storedExpiry === null) {
      const count = batchCountRefusal(Number(f.count));
      if (count) refuse("count", msg(count));
    }
    if (!f.unlimited_quota) {
      // the server's quota rule: an integer (else "quota_invalid", the users' wording), not negative
      const text = f.remain_quota.trim();
      const quota = /^-?\d+$/.test(text) ? quotaRefusal(Number(text)) : "quota_invalid";
      if (quota) refuse("remain_quota", msg(quota));
    }
    const expiry = parseExpiry(f.expiry);
    if (expiry === null) refuse("expiry", msg("token_expiry_invalid"));
    else if (expiry !== storedExpiry) {
      const past = expiryRefusal(expiry, now());
      if (past) refuse("expiry", msg(past));
    }
    // Bounds of the server's schema; its refusal names the field ("Invalid parameter: …").
    if (f.rate_limit_enabled) {
      for (const k of RATE_FIELDS) {
        if (!tokenFields.shape[k].safeParse(f[k]).success) refuse(k, msg("invalid_parameter_detail", { detail: k }));
      }
    }
    // The limits (docs/console-ui.md, "Limits"): non-negative whole counts, quotas in the display
    // unit; refused as the route refuses a bad field ("Invalid parameter: …").
    for (const k of parseLimitTexts(limitTextsOf(f), display).invalid) refuse(k, msg("invalid_parameter_detail", { detail: k }));
  });
}

const limitTextsOf = (f: TokenForm) => Object.fromEntries(LIMIT_FIELD_LIST.map((k) => [k, f[k] ?? ""])) as Record<LimitField, string>;

/** The POST/PUT body of valid form values (the expiry sent only when changed on edit; quotas in units). */
export function tokenBody(f: TokenForm, token: Token | null, display: QuotaDisplay = UNITS) {
  const expired_time = parseExpiry(f.expiry) ?? -1;
  const body: Record<string, unknown> = {
    name: f.name.trim(),
    remain_quota: f.unlimited_quota ? 0 : Number(f.remain_quota),
    unlimited_quota: f.unlimited_quota,
    expired_time,
    rate_limit_enabled: f.rate_limit_enabled,
    rate_limit_period: Number(f.rate_limit_period),
    rate_limit_count: Number(f.rate_limit_count),
    rate_limit_success: Number(f.rate_limit_success),
    model_limits_enabled: f.model_limits_enabled,
    model_limits: f.model_limits.join(","),
    allow_ips: f.allow_ips,
    group: f.group,
    ...parseLimitTexts(limitTextsOf(f), display).values,
  };
  if (token === null) return { ...body, count: Number(f.count) };
  // The stored expiry is sent back only when it was changed: a token whose expiry has passed
  // stays editable (the server refuses a new expiry in the past).
  if (expired_time === token.expired_time) delete body.expired_time;
  return { ...body, id: token.id };
}

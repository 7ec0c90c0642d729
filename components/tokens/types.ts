// Shapes of the token API (relay-data: lib/tokens/shared.ts tokenView).
export type Token = {
  id: number;
  user_id: number;
  name: string;
  key: string; // masked in lists: sk-abcd**********wxyz
  status: number;
  created_time: number;
  accessed_time: number;
  expired_time: number; // -1 never
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  rate_limit_enabled: boolean;
  rate_limit_period: number;
  rate_limit_count: number;
  rate_limit_success: number;
  // the limits of docs/console-ui.md "Limits" (0 = none; quotas in quota units)
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
  quota_5h?: number;
  quota_day?: number;
  quota_week?: number;
  quota_month?: number;
};

export type TokenPage = { items: Token[]; total: number; page: number; page_size: number };

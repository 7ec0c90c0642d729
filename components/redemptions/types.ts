// Shapes of the redemption API (lib/redemptions/shared.ts redemptionView: no code, a hint).
import { REDEMPTION_STATUS } from "@/lib/statuses";

export type Redemption = {
  id: number;
  name: string;
  key_hint: string;
  status: number; // 1 unused, 2 disabled, 3 used
  quota: number;
  is_gift: boolean;
  max_uses: number; // -1 unlimited
  used_count: number;
  valid_from: number; // unix seconds, 0 none
  valid_until: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
};

export type RedemptionPage = { items: Redemption[]; total: number; page: number; page_size: number };

// Greyed: disabled, or a gift code whose uses are all taken.
export const isGreyed = (c: Redemption) => c.status === REDEMPTION_STATUS.disabled || (c.is_gift && c.max_uses !== -1 && c.used_count >= c.max_uses);

// Shapes of the channel API (relay-data: lib/channels/list.ts, shared.ts).
import type { ChannelInfo } from "@/lib/channels/multi-key-rules";

export type Channel = {
  id: number;
  type: number;
  name: string;
  status: number;
  weight: number;
  priority: number;
  group: string;
  models: string;
  tag: string | null;
  base_url: string;
  other: string;
  model_mapping: string;
  status_code_mapping: string;
  other_info: string;
  setting: string;
  test_model: string;
  auto_ban: number;
  remark: string;
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  response_time: number;
  test_time: number;
  created_time: number;
  key_set: boolean;
  /** a multi-key channel's key statuses (never a key) */
  channel_info?: ChannelInfo;
  is_tag?: undefined;
};

export type TagRow = {
  is_tag: true;
  id: number;
  tag: string;
  name: string;
  type: number | null;
  status: number;
  group: string;
  models: string;
  used_quota: number;
  response_time: number;
  priority: number | null;
  weight: number | null;
  children: Channel[];
};

export type ChannelList = { items: Array<Channel | TagRow>; total: number; page: number; page_size: number; type_counts: Record<string, number> };

export const CHANNEL_COLUMNS = ["id", "name", "group", "type", "status", "responseTime", "last24h", "balance", "priority", "weight", "operate"] as const;
export type ChannelColumn = (typeof CHANNEL_COLUMNS)[number];

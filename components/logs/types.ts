// Shapes of the usage log API (lib/logs/).
export type Log = {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  group: string;
  request_id: string;
  other: string;
  client_ip: string;
  channel?: number;
  channel_name?: string;
};
export type LogPage = { items: Log[]; page: number; page_size: number; total: number; total_exact?: boolean; searched_from?: number | null };
export type LogStat = { quota: number; rpm: number; tpm: number; searched_from?: number | null };

export const LOG_COLUMNS = [
  "time",
  "channel",
  "username",
  "token",
  "group",
  "type",
  "model",
  "useTime",
  "prompt",
  "completion",
  "quota",
  "retry",
  "ip",
  "detail",
] as const;
export type LogColumn = (typeof LOG_COLUMNS)[number];
// Shown to admins only (the self view has no channel, user or retry path).
export const ADMIN_LOG_COLUMNS: readonly LogColumn[] = ["channel", "username", "retry"];

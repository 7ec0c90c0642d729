// The user record of the console API (GET /api/user/self, /api/user/{id}, the user list).
export type User = {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  idc_flare_id: string;
  setting: string;
  remark: string;
  created_time: number;
  DeletedAt: string | null;
  // The active plan's name in the admin's user list ("" or absent: none; docs/console-ui.md "Plans").
  plan?: string;
  // Only in GET /api/user/self: false for an account made through a provider without a password yet.
  has_password?: boolean;
};

export type Page<T> = { items: T[]; page: number; total: number };

// Third-party bindings, shown read-only: only the user binds them, from their own page.
export const BINDING_FIELDS = ["email", "github_id", "oidc_id", "wechat_id", "telegram_id", "linux_do_id", "idc_flare_id"] as const;
export type BindingField = (typeof BINDING_FIELDS)[number];

// Where the user list reads a page: the plain list is 0-based, the search 1-based.
export function userListPath(q: { keyword: string; group: string; page: number; pageSize: number }): string {
  if (q.keyword.trim() || q.group) {
    const params = new URLSearchParams({ keyword: q.keyword.trim(), group: q.group, p: String(q.page + 1), page_size: String(q.pageSize) });
    return `/api/user/search?${params}`;
  }
  return `/api/user/?p=${q.page}&page_size=${q.pageSize}`;
}

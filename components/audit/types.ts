// The audit log's rows as GET /api/audit/ and /api/audit/self answer them (docs/audit.md, "API").
export type AuditRow = {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  user_id: number;
  action: string;
  target_type: string;
  target_id: string;
  detail: Record<string, unknown>;
  ip: string;
  user_agent: string;
  request_id: string;
  by_admin?: boolean;
};

export type AuditPage = { items: AuditRow[]; page: number; page_size: number; total: number; total_exact: boolean };

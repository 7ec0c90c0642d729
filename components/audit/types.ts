// The audit log's rows as GET /api/audit/ and /api/audit/self answer them (docs/audit.md, "API").
import type { AuditView } from "@/lib/audit/query";

export type AuditRow = AuditView;

export type AuditPage = { items: AuditRow[]; page: number; page_size: number; total: number; total_exact: boolean };

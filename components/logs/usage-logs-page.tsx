"use client";
// /app/logs/api-usage (docs/channels-tokens-billing.md): filters, summary (quota, rpm, tpm), columns
// (admin-only: channel, username, retry), detail rows with the log's other data. Admins
// read /api/log/ and /api/log/stat; everyone else the self endpoints.
import { useTranslations } from "next-intl";
import { Fragment, useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { Pagination } from "@/components/ui/pagination";
import { ListStatusRow, Table, Td, Th } from "@/components/ui/table";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { isAdminRole } from "@/lib/client/navigation";
import { defaultLogRange, frtColor, LOG_TYPE_COLOR, LOG_TYPES, parseExpiry, parseOther, toLocalInput, timeUsedColor } from "@/lib/client/relay";
import { DEFAULT_PAGE_SIZE, readJson, STORAGE_KEYS, writeJson } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { usePageSize } from "@/lib/client/use-page-size";
import type { User } from "@/lib/client/user";

type Log = {
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
type LogPage = { items: Log[]; page: number; page_size: number; total: number };
type LogStat = { quota: number; rpm: number; tpm: number };

const ALL_COLUMNS = [
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
type Column = (typeof ALL_COLUMNS)[number];
const ADMIN_COLUMNS: Column[] = ["channel", "username", "retry"];

type Filters = { type: string; username: string; token_name: string; model_name: string; channel: string; group: string; start: string; end: string };

function initialFilters(): Filters {
  const r = defaultLogRange(Date.now());
  return { type: "0", username: "", token_name: "", model_name: "", channel: "", group: "", start: toLocalInput(r.start), end: toLocalInput(r.end) };
}

function queryOf(f: Filters, admin: boolean): URLSearchParams | null {
  const start = parseExpiry(f.start);
  const end = parseExpiry(f.end);
  if (start === null || end === null) return null;
  const q = new URLSearchParams({ type: f.type, token_name: f.token_name.trim(), model_name: f.model_name.trim(), group: f.group.trim() });
  if (start > 0) q.set("start_timestamp", String(start));
  if (end > 0) q.set("end_timestamp", String(end));
  if (admin) {
    q.set("username", f.username.trim());
    q.set("channel", f.channel.trim());
  }
  return q;
}

// The admin's retry path: other.admin_info.use_channel (channel ids tried in order).
function retryPath(other: Record<string, unknown>): string {
  const info = other.admin_info as { use_channel?: unknown } | undefined;
  return Array.isArray(info?.use_channel) && info.use_channel.length > 1 ? info.use_channel.join(" → ") : "";
}

function Detail({ log, admin }: { log: Log; admin: boolean }) {
  const t = useTranslations("logs.detail");
  const other = parseOther(log.other);
  const entries: [string, unknown][] = [];
  const add = (label: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== "") entries.push([label, typeof v === "object" ? JSON.stringify(v) : v]);
  };
  add(t("modelRatio"), other.model_ratio);
  add(t("modelPrice"), other.model_price);
  add(t("completionRatio"), other.completion_ratio);
  add(t("groupRatio"), other.group_ratio);
  add(t("userGroupRatio"), other.user_group_ratio);
  add(t("cacheTokens"), other.cache_tokens);
  add(t("cacheRatio"), other.cache_ratio);
  add(t("cacheCreationTokens"), other.cache_creation_tokens);
  add(t("cacheCreationRatio"), other.cache_creation_ratio);
  add(t("audioInput"), other.audio_input);
  add(t("audioOutput"), other.audio_output);
  add(t("audioRatio"), other.audio_ratio);
  add(t("audioSeconds"), other.audio_seconds);
  if (other.is_model_mapped) add(t("upstreamModel"), other.upstream_model_name);
  add(t("virtualModel"), other.virtual_model);
  add(t("frt"), typeof other.frt === "number" ? `${(other.frt / 1000).toFixed(2)}s` : undefined);
  add(t("reasoningEffort"), other.reasoning_effort);
  add(t("errorType"), other.error_type);
  add(t("errorCode"), other.error_code);
  add(t("statusCode"), other.status_code);
  if (admin) add(t("adminInfo"), other.admin_info);
  add(t("requestId"), log.request_id);
  add(t("content"), log.content);
  add(t("systemPrompt"), other.system_prompt);
  add(t("context"), other.context);
  add(t("input"), other.input_content);
  add(t("output"), other.output_content);
  return (
    <dl className="grid gap-x-6 gap-y-1 text-xs sm:grid-cols-[auto_1fr]" data-testid={`log-detail-${log.id}`}>
      {entries.length === 0 && <span className="text-zinc-500">{t("none")}</span>}
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt className="font-medium text-zinc-500">{k}</dt>
          <dd className="break-all whitespace-pre-wrap">{String(v)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function UserInfoDialog({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const t = useTranslations("logs.userInfo");
  const display = useQuotaDisplay();
  // The read-only card (any level); the editor's GET /api/user/{id} refuses equal or higher levels.
  const { data } = useSWR<User>(userId ? `/api/user/${userId}/info` : null);
  return (
    <Dialog open={userId !== null} onOpenChange={(o) => !o && onClose()} title={t("title")}>
      {data ? (
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-zinc-500">{t("username")}</dt>
          <dd>{data.username}</dd>
          <dt className="text-zinc-500">{t("quota")}</dt>
          <dd>{renderQuota(data.quota, display)}</dd>
          <dt className="text-zinc-500">{t("used")}</dt>
          <dd>{renderQuota(data.used_quota, display)}</dd>
          <dt className="text-zinc-500">{t("requests")}</dt>
          <dd>{data.request_count}</dd>
        </dl>
      ) : (
        <p className="text-sm text-zinc-500">{t("loading")}</p>
      )}
    </Dialog>
  );
}

export function UsageLogsPage() {
  const t = useTranslations("logs");
  const display = useQuotaDisplay();
  const admin = isAdminRole(useSessionUser()?.role);
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(0);
  const [draft, setDraft] = useState<Filters | null>(null);
  const [filters, setFilters] = useState<Filters | null>(null);
  const [hidden, setHidden] = useState<Column[] | null>(null);
  const [open, setOpen] = useState<number[]>([]);
  const [userInfo, setUserInfo] = useState<number | null>(null);

  // The time range and the remembered columns depend on the browser: set after mount.
  useEffect(() => {
    const f = initialFilters();
    setDraft(f);
    setFilters(f);
    const saved = readJson<string[]>(STORAGE_KEYS.logColumns);
    setHidden(Array.isArray(saved) ? ALL_COLUMNS.filter((c) => saved.includes(c)) : []);
  }, []);
  useEffect(() => setPage(0), [filters, pageSize]);

  const q = filters ? queryOf(filters, admin) : null;
  const base = admin ? "/api/log" : "/api/log/self";
  const listPath = q && pageSize !== null ? `${base}/?${q}&p=${page + 1}&page_size=${pageSize}` : null;
  const statPath = q ? `${base}/stat?${q}` : null;
  const { data, error, isLoading } = useSWR<LogPage>(listPath);
  const { data: stat } = useSWR<LogStat>(statPath);

  const available = ALL_COLUMNS.filter((c) => admin || !ADMIN_COLUMNS.includes(c));
  const visible = available.filter((c) => !(hidden ?? []).includes(c));
  const shown = new Set(visible);

  function search(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    if (!queryOf(draft, admin)) {
      toast.error({ key: "logs.timeInvalid" });
      return;
    }
    setFilters({ ...draft });
  }

  function setVisible(v: string[]) {
    const h = available.filter((c) => !v.includes(c));
    writeJson(STORAGE_KEYS.logColumns, h);
    setHidden(h);
  }

  const d = draft;
  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <div className="mb-4 flex flex-wrap gap-3" role="group" aria-label={t("summary")}>
        <Badge color="blue" className="px-3 py-1 text-sm">
          {t("statQuota", { quota: renderQuota(stat?.quota ?? 0, display) })}
        </Badge>
        <Badge color="purple" className="px-3 py-1 text-sm">
          {t("statRpm", { rpm: stat?.rpm ?? 0 })}
        </Badge>
        <Badge color="gray" className="px-3 py-1 text-sm">
          {t("statTpm", { tpm: stat?.tpm ?? 0 })}
        </Badge>
      </div>
      {d && (
        <form onSubmit={search} role="search" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field label={t("filters.start")} value={d.start} placeholder="YYYY-MM-DD HH:mm:ss" onChange={(e) => setDraft({ ...d, start: e.target.value })} />
          <Field label={t("filters.end")} value={d.end} placeholder="YYYY-MM-DD HH:mm:ss" onChange={(e) => setDraft({ ...d, end: e.target.value })} />
          <Field label={t("filters.tokenName")} value={d.token_name} onChange={(e) => setDraft({ ...d, token_name: e.target.value })} />
          <Field label={t("filters.modelName")} value={d.model_name} onChange={(e) => setDraft({ ...d, model_name: e.target.value })} />
          <Field label={t("filters.group")} value={d.group} onChange={(e) => setDraft({ ...d, group: e.target.value })} />
          {admin && <Field label={t("filters.channel")} inputMode="numeric" value={d.channel} onChange={(e) => setDraft({ ...d, channel: e.target.value })} />}
          {admin && <Field label={t("filters.username")} value={d.username} onChange={(e) => setDraft({ ...d, username: e.target.value })} />}
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("filters.type")}</span>
            <Select aria-label={t("filters.type")} value={d.type} onChange={(e) => setDraft({ ...d, type: e.target.value })}>
              <option value="0">{t("types.0")}</option>
              {LOG_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {t(`types.${ty}`)}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex items-end gap-2 lg:col-span-4">
            <Button type="submit">{t("search")}</Button>
            <Button
              variant="ghost"
              onClick={() => {
                const f = initialFilters();
                setDraft(f);
                setFilters(f);
              }}
            >
              {t("reset")}
            </Button>
            <MultiSelect label={t("columns")} options={available.map((c) => ({ value: c, label: t(`col.${c}`) }))} value={visible} onChange={setVisible} />
          </div>
        </form>
      )}
      <Table>
        <thead>
          <tr>
            {visible.map((c) => (
              <Th key={c}>{t(`col.${c}`)}</Th>
            ))}
          </tr>
        </thead>
        <tbody>
          <ListStatusRow colSpan={visible.length || 1} list={{ isLoading, error, data }} t={t} />
          {data?.items.map((log) => {
            const other = parseOther(log.other);
            const frt = typeof other.frt === "number" ? other.frt : null;
            const isOpen = open.includes(log.id);
            const consumeLike = log.type === 2 || log.type === 6;
            return (
              <Fragment key={log.id}>
                <tr data-testid={`log-row-${log.id}`}>
                  {shown.has("time") && <Td className="text-xs whitespace-nowrap">{formatTimestamp(log.created_at)}</Td>}
                  {shown.has("channel") && (
                    <Td className="text-xs">
                      {log.channel ? (
                        <Badge color="blue">
                          {log.channel}
                          {log.channel_name ? ` · ${log.channel_name}` : ""}
                        </Badge>
                      ) : null}
                    </Td>
                  )}
                  {shown.has("username") && (
                    <Td className="text-xs">
                      {log.username && (
                        <button type="button" className="text-blue-700 hover:underline dark:text-blue-400" onClick={() => setUserInfo(log.user_id)}>
                          {log.username}
                        </button>
                      )}
                    </Td>
                  )}
                  {shown.has("token") && <Td className="text-xs">{log.token_name && <Badge>{log.token_name}</Badge>}</Td>}
                  {shown.has("group") && <Td className="text-xs">{log.group}</Td>}
                  {shown.has("type") && (
                    <Td>
                      <Badge color={LOG_TYPE_COLOR[log.type] ?? "gray"}>{t(`types.${LOG_TYPES.includes(log.type as 1) ? log.type : 0}`)}</Badge>
                    </Td>
                  )}
                  {shown.has("model") && <Td className="font-mono text-xs whitespace-nowrap">{log.model_name}</Td>}
                  {shown.has("useTime") && (
                    <Td className="text-xs whitespace-nowrap">
                      {consumeLike && (
                        <div className="flex flex-wrap items-center gap-1">
                          <Badge color={timeUsedColor(log.use_time)}>{`${log.use_time}s`}</Badge>
                          {log.is_stream && frt !== null && <Badge color={frtColor(frt)}>{`${(frt / 1000).toFixed(1)}s`}</Badge>}
                          <Badge color={log.is_stream ? "blue" : "purple"}>{log.is_stream ? t("stream") : t("nonStream")}</Badge>
                        </div>
                      )}
                    </Td>
                  )}
                  {shown.has("prompt") && <Td className="text-xs">{consumeLike ? log.prompt_tokens : ""}</Td>}
                  {shown.has("completion") && <Td className="text-xs">{consumeLike ? log.completion_tokens : ""}</Td>}
                  {shown.has("quota") && <Td className="text-xs whitespace-nowrap">{log.quota ? renderQuota(log.quota, display, 6) : ""}</Td>}
                  {shown.has("retry") && <Td className="text-xs">{retryPath(other)}</Td>}
                  {shown.has("ip") && <Td className="text-xs">{log.client_ip}</Td>}
                  {shown.has("detail") && (
                    <Td className="text-xs">
                      <div className="flex items-center gap-2">
                        <span className="max-w-64 truncate" title={log.content}>
                          {log.content}
                        </span>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-expanded={isOpen}
                          onClick={() => setOpen(isOpen ? open.filter((x) => x !== log.id) : [...open, log.id])}
                        >
                          {isOpen ? t("hideDetail") : t("showDetail")}
                        </Button>
                      </div>
                    </Td>
                  )}
                </tr>
                {isOpen && (
                  <tr>
                    <Td colSpan={visible.length} className="bg-zinc-50 dark:bg-zinc-900">
                      <Detail log={log} admin={admin} />
                    </Td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </Table>
      <Pagination page={page} pageSize={pageSize ?? DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} onPageSize={setPageSize} />
      <UserInfoDialog userId={userInfo} onClose={() => setUserInfo(null)} />
    </div>
  );
}

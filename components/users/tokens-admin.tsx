"use client";
// The admin user editor's token list (docs/permissions.md, `tokens:read`): another user's API
// tokens, read only and keys masked (GET /api/user/{id}/tokens), ten to a page. Shown to the
// root and to an admin granted tokens:read; nothing here changes a token.
import { useTranslations } from "next-intl";
import { useState } from "react";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import { shownKey, TokenStatusBadge } from "@/components/tokens/token-columns";
import type { Token } from "@/components/tokens/types";
import { Badge } from "@/components/ui/badge";
import { Pagination } from "@/components/ui/pagination";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { formatTimestamp, renderQuota } from "@/lib/client/format";

const SIZE = 10;

export function TokensAdmin({ userId }: { userId: number }) {
  const t = useTranslations("tokens");
  const tu = useTranslations("userEditor");
  const display = useQuotaDisplay();
  const [page, setPage] = useState(0);
  const { data } = useSWR<{ items: Token[]; total: number }>(`/api/user/${userId}/tokens?p=${page + 1}&page_size=${SIZE}`);
  return (
    <section aria-label={tu("tokens")} data-testid="user-tokens">
      <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{tu("tokens")}</h3>
      <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">{tu("tokensHint")}</p>
      <div className="overflow-x-auto">
        <Table>
          <thead>
            <tr>
              <Th>{t("col.name")}</Th>
              <Th>{t("col.status")}</Th>
              <Th>{t("col.key")}</Th>
              <Th>{t("col.used")}</Th>
              <Th>{t("col.remaining")}</Th>
              <Th>{t("col.expires")}</Th>
            </tr>
          </thead>
          <tbody aria-busy={data === undefined}>
            {data?.items.length === 0 && <EmptyRow colSpan={6}>{tu("tokensNone")}</EmptyRow>}
            {data?.items.map((tok) => (
              <tr key={tok.id}>
                <Td className="font-medium">{tok.name}</Td>
                <Td>
                  <TokenStatusBadge status={tok.status} t={t} />
                </Td>
                <Td>
                  <code className="font-mono text-xs whitespace-nowrap">{shownKey(tok.key)}</code>
                </Td>
                <Td className="whitespace-nowrap">{renderQuota(tok.used_quota, display)}</Td>
                <Td className="whitespace-nowrap">
                  {tok.unlimited_quota ? <Badge color="blue">{t("unlimited")}</Badge> : renderQuota(tok.remain_quota, display)}
                </Td>
                <Td className="whitespace-nowrap">{tok.expired_time === -1 ? t("never") : formatTimestamp(tok.expired_time)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      {data && data.total > SIZE && <Pagination page={page} pageSize={SIZE} total={data.total} onPage={setPage} />}
    </section>
  );
}

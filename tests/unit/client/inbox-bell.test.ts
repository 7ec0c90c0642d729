// The top bar's bell (components/layout/inbox-bell.tsx, docs/messages.md): it asks for the
// unread count through SWR and polls it every 30 seconds. SWR is replaced by a recorder, so
// the test sees what the bell asks for without a browser.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

const swrCalls = vi.hoisted(() => [] as { key: unknown; options: { refreshInterval?: number } }[]);
vi.mock("swr", () => ({
  default: (key: unknown, _fetcher: unknown, options: { refreshInterval?: number }) => {
    swrCalls.push({ key, options });
    return { data: 120 };
  },
}));
vi.mock("next-intl", () => ({
  useTranslations: () => (key: string, values?: { count?: string }) => (values?.count ? `${key}:${values.count}` : key),
}));
vi.mock("next/link", () => ({
  default: ({ href, children, ...rest }: { href: string; children: unknown }) => createElement("a", { href, ...rest }, children as never),
}));

const { InboxBell } = await import("@/components/layout/inbox-bell");
const { INBOX_POLL_MS, UNREAD_PATH } = await import("@/lib/client/inbox");

describe("the inbox bell", () => {
  it("polls the unread count every 30 seconds and shows 99+ above 99", () => {
    const html = renderToStaticMarkup(createElement(InboxBell));
    expect(INBOX_POLL_MS).toBe(30_000);
    expect(swrCalls).toHaveLength(1);
    expect(swrCalls[0].key).toBe(UNREAD_PATH);
    expect(UNREAD_PATH).toBe("/api/user/messages/unread_count");
    expect(swrCalls[0].options.refreshInterval).toBe(30_000);
    expect(html).toContain('href="/app/inbox"');
    expect(html).toContain('aria-label="inboxUnread:99+"');
    expect(html).toContain(">99+</span>");
  });
});

// The channel types the console offers: exactly those something serves (the chat relay's
// adapters, lib/relay/providers/registry.ts, and the task relay's types), each with what its
// adapter's profile says (docs/providers.md). GET /api/channel/types serves this list to the
// editor; saving a channel checks its type and every key line against it.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { channelTypeName } from "@/lib/channels/channel-types";
import type { Locale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";
import { adapterFor, supportedChannelTypes } from "@/lib/relay/providers/registry";
import type { LocalizedText, ProviderProfile } from "@/lib/relay/providers/types";
import { TASK_CHANNEL_PROFILES } from "@/lib/tasks/channel-profiles";

/** One channel type as the editor shows it. */
export interface ChannelTypeInfo {
  id: number;
  name: string;
  /** chat: the relay's routes; task: the task relay (Midjourney, Suno) */
  kind: "chat" | "task";
  defaultBaseUrl: string;
  /** the base URL field's placeholder */
  basePlaceholder: string;
  keyFormat: string | null;
  keyHint: LocalizedText | null;
  other: { label: LocalizedText; placeholder: string; hint: LocalizedText | null } | null;
  testModel: string;
  /** the models the editor's model box offers first: the profile's known models, else its test model */
  knownModels: string[];
  /** the channel setting "Responses only" means something for this type */
  responsesOnly: boolean;
  /** the console can fetch the upstream's model list / balance for this type */
  listModels: boolean;
  balance: boolean;
}

function profileOf(type: number): { kind: "chat" | "task"; profile: ProviderProfile; basePlaceholder?: string } | undefined {
  const adapter = adapterFor(type);
  if (adapter) return { kind: "chat", profile: adapter.profile };
  const task = TASK_CHANNEL_PROFILES.get(type);
  return task && { kind: "task", profile: task, basePlaceholder: task.basePlaceholder };
}

function info(id: number): ChannelTypeInfo {
  const { kind, profile: p, basePlaceholder } = profileOf(id)!;
  return {
    id,
    name: channelTypeName(id),
    kind,
    defaultBaseUrl: p.defaultBaseUrl,
    basePlaceholder: basePlaceholder ?? p.defaultBaseUrl,
    keyFormat: p.keyFormat ?? null,
    keyHint: p.keyHint ?? null,
    other: p.other ? { label: p.other.label, placeholder: p.other.placeholder ?? "", hint: p.other.hint ?? null } : null,
    testModel: p.testModel,
    knownModels: [...new Set([...(p.knownModels ?? []), p.testModel])],
    responsesOnly: p.responsesOnlyOption === true,
    listModels: p.listModels !== undefined,
    balance: p.balance !== undefined,
  };
}

let cached: ChannelTypeInfo[] | undefined;
// the same list for every admin (the route checks the access)
export function channelTypeList(_: { ctx: UserCtx }): ChannelTypeInfo[] {
  cached ??= [...supportedChannelTypes(), ...TASK_CHANNEL_PROFILES.keys()].sort((a, b) => a - b).map(info);
  return cached;
}

/** Whether a channel of this type can be saved: something serves it. */
export const isOfferedChannelType = (type: number) => profileOf(type) !== undefined;

/**
 * Refuses a key that does not have the type's shape (each key, for a field that holds several:
 * a batch's lines, a multi-key channel's keys), with the key's number and the expected
 * format; the key itself is never quoted. The adapter's reason is given in `locale`, the
 * request's (an AppError's params are rendered as they are: docs/i18n.md).
 */
export function checkChannelKeys(type: number, keys: readonly string[], locale: Locale): void {
  const profile = profileOf(type)?.profile;
  if (!profile?.checkKey) return;
  for (let i = 0; i < keys.length; i++) {
    const why = profile.checkKey(keys[i]);
    if (!why) continue;
    const detail = keys.length > 1 ? renderMessage(locale, "channel_key_line", { n: i + 1, detail: why[locale] }) : why[locale];
    throw new AppError("INVALID_INPUT", "channel_key_format", { format: profile.keyFormat ?? "", detail });
  }
}

/** Refuses an `other` field that the type's rule refuses (Cloudflare's account id: docs/providers.md), the reason in `locale`. */
export function checkChannelOther(type: number, other: string, locale: Locale): void {
  const why = profileOf(type)?.profile.checkOther?.(other);
  if (why) throw new AppError("INVALID_INPUT", "channel_other_invalid", { detail: why[locale] });
}

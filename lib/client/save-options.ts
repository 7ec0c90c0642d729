// Saving a settings section (docs/settings.md, "Saving"; docs/product-rules.md, "Options"):
// only the changed keys are sent; toggles whose key ends in Enabled go one after another and
// stop at the first failure, the other keys go in parallel (turned-off toggles, then cleared
// values, then other values, then turned-on toggles: see saveOptions); an empty secret field is never
// sent back; the addresses of TRIM_SLASH (lib/options/rules.ts) lose their trailing slashes. Pure: the
// request is passed in, so that the rules are unit-tested.
import { TRIM_SLASH } from "@/lib/options/rules";

import { FALLBACK_VALUES } from "@/lib/options/rules";
import { isOptionKey } from "@/lib/options/registry";
import { dict } from "@/lib/own-keys";

export type OptionChange = { key: string; value: string };

/** One PUT's outcome: saved, refused by the server (its message was shown), or the request failed. */
export type PutOutcome = { ok: true } | { ok: false; kind: "refused" | "request"; message?: string };

export type SaveResult = {
  /** nothing changed (你似乎并没有修改什么): no request was made */
  unchanged: boolean;
  succeeded: string[];
  failed: string[];
  /** keys of the Enabled chain left unsent after a failure */
  skipped: string[];
  /** which message to show: none, success, partial failure, or request failure */
  outcome: "unchanged" | "success" | "partial" | "failed";
};

/** The value to send for a key, normalized as the server would store it. */
export function normalizeOptionValue(key: string, value: string): string {
  return TRIM_SLASH.has(key) ? value.trim().replace(/\/+$/, "") : value;
}

/**
 * The keys whose form value differs from the loaded one, in form order. Secret keys are
 * sent only when the field holds something (the server never sends their values).
 */
export function changedOptions(loaded: Record<string, string>, values: Record<string, string>, secretKeys: ReadonlySet<string> = new Set()): OptionChange[] {
  const changes: OptionChange[] = [];
  for (const [key, raw] of Object.entries(values)) {
    if (secretKeys.has(key)) {
      if (raw !== "") changes.push({ key, value: raw });
      continue;
    }
    const value = normalizeOptionValue(key, raw);
    if (value !== (loaded[key] ?? "")) changes.push({ key, value });
  }
  // The server refuses every enabled but incomplete fallback-pricing state, so changing its
  // values while it stays enabled goes through a switch off and back on (saveOptions sends
  // the "false" first and the "true" last: docs/pricing.md, "Saving combined keys").
  const fallback = "fallback_pricing_enabled";
  if (loaded[fallback] === "true" && values[fallback] === "true" && changes.some((c) => isOptionKey(c.key) && FALLBACK_VALUES.includes(c.key))) {
    changes.push({ key: fallback, value: "false" }, { key: fallback, value: "true" });
  }
  return changes;
}

/** Toggles chained one after another: the key ends in Enabled (docs/settings.md). */
export const isChainedKey = (key: string) => key.endsWith("Enabled");

export async function saveOptions(changes: OptionChange[], put: (change: OptionChange) => Promise<PutOutcome>): Promise<SaveResult> {
  if (changes.length === 0) return { unchanged: true, succeeded: [], failed: [], skipped: [], outcome: "unchanged" };
  const chained = changes.filter((c) => isChainedKey(c.key));
  const parallel = changes.filter((c) => !isChainedKey(c.key));
  const succeeded: string[] = [];
  const failed: string[] = [];
  const skipped: string[] = [];
  let requestFailed = false;
  const record = (key: string, r: PutOutcome) => {
    if (r.ok) succeeded.push(key);
    else {
      failed.push(key);
      if (r.kind === "request") requestFailed = true;
    }
  };
  const safePut = (c: OptionChange): Promise<PutOutcome> => put(c).catch((): PutOutcome => ({ ok: false, kind: "request" }));

  // Rules that combine keys (fallback pricing, rebate) are checked by the server against the
  // options already saved, so the order matters within one save: toggles turned off go first,
  // then cleared values, then the other values, and toggles turned on last (docs/pricing.md,
  // "Saving combined keys"). The toggles stay one chain that stops at its first failure.
  const off = chained.filter((c) => c.value !== "true");
  const on = chained.filter((c) => c.value === "true");
  let chainStopped = false;
  const runChain = async (part: OptionChange[]) => {
    for (let i = 0; i < part.length; i++) {
      if (chainStopped) {
        skipped.push(part[i].key);
        continue;
      }
      const r = await safePut(part[i]);
      record(part[i].key, r);
      if (!r.ok) chainStopped = true;
    }
  };
  const inParallel = (part: OptionChange[]) => Promise.all(part.map(async (c) => record(c.key, await safePut(c))));
  // lower-case switches (fallback_pricing_enabled, oidc.enabled) are not chained, but ordered alike
  const toggle = (c: OptionChange) => /[._]enabled$/.test(c.key);
  await runChain(off);
  await inParallel(parallel.filter((c) => toggle(c) && c.value !== "true"));
  await inParallel(parallel.filter((c) => !toggle(c) && c.value === ""));
  await inParallel(parallel.filter((c) => !toggle(c) && c.value !== ""));
  await inParallel(parallel.filter((c) => toggle(c) && c.value === "true"));
  await runChain(on);

  let outcome: SaveResult["outcome"] = "success";
  if (failed.length > 0) outcome = succeeded.length === 0 && requestFailed ? "failed" : "partial";
  return { unchanged: false, succeeded, failed, skipped, outcome };
}

/**
 * What a section keeps typed after a save that did not fully succeed: the values of the keys
 * that failed or were left unsent (the others are reset to what the server now holds), so a
 * partial failure does not lose what was typed (docs/settings.md, "Saving").
 */
export function unsavedValues(result: SaveResult, values: Record<string, string>): Record<string, string> {
  const kept = dict<string>();
  for (const key of [...result.failed, ...result.skipped]) if (key in values) kept[key] = values[key];
  return kept;
}

/**
 * One outcome for several sections saved together (the settings page's save bar): every key
 * saved → success; some failed → partial, or failed when nothing was saved and a request went
 * unanswered (as within one section).
 */
export function mergeSaveResults(results: SaveResult[]): SaveResult {
  const sent = results.filter((r) => !r.unchanged);
  if (sent.length === 0) return { unchanged: true, succeeded: [], failed: [], skipped: [], outcome: "unchanged" };
  const succeeded = sent.flatMap((r) => r.succeeded);
  const failed = sent.flatMap((r) => r.failed);
  const skipped = sent.flatMap((r) => r.skipped);
  let outcome: SaveResult["outcome"] = "success";
  if (failed.length > 0) outcome = succeeded.length === 0 && sent.some((r) => r.outcome === "failed") ? "failed" : "partial";
  return { unchanged: false, succeeded, failed, skipped, outcome };
}

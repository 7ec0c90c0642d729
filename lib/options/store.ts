// The options cache: defaults overlaid with the rows admins have saved. Every reader in the
// program (the relay included) reads from memory; a write goes to the database first and
// then to the cache, and on several nodes a Redis message tells the others to reload.
// Keys are those of lib/options/registry.ts (`OptionKey`). Secret options are sealed in the database (lib/auth/secret-box.ts, as
// channel keys) and held opened in the cache: see docs/secrets.md.
import "server-only";
import { logger } from "@/lib/logger";
import { db } from "@/lib/db/client";
import { onInvalidate, publishInvalidation } from "@/lib/cache/invalidate";
import { isSealed, open, seal } from "@/lib/auth/secret-box";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { isOptionKey, type OptionKey } from "@/lib/options/registry";
import { SECRET_OPTION_KEYS } from "@/lib/options/rules";

const log = logger("options");

const state = globalThis as unknown as {
  __gatewayOptions?: { values: Map<OptionKey, string>; listeners?: Array<() => void> };
};
const defaultValues = () => new Map(Object.entries(OPTION_DEFAULTS) as Array<[OptionKey, string]>);
function holder() {
  state.__gatewayOptions ??= { values: defaultValues() };
  return state.__gatewayOptions;
}

// Called after options change in this process (a save, or a reload), whichever bundle
// registered it (the holder is shared): the outbound agents drop their pools when the
// private-address option changes (lib/net/outbound.ts).
export function onOptionsApplied(fn: () => void): void {
  (holder().listeners ??= []).push(fn);
}
function notifyApplied(): void {
  for (const fn of holder().listeners ?? []) fn();
}

export async function loadOptions(): Promise<void> {
  const rows = await db().option.findMany();
  const values = defaultValues();
  // a row of a key no longer registered (or never valid) is not an option
  for (const row of rows) {
    if (isOptionKey(row.key)) values.set(row.key, SECRET_OPTION_KEYS.has(row.key) ? openSecret(row.key, row.value) : row.value);
  }
  holder().values = values;
  notifyApplied();
}

/** A secret option's stored value, opened; "" when it cannot be (sealed with another ENCRYPTION_KEY). */
function openSecret(key: string, stored: string): string {
  if (!stored) return "";
  try {
    return open(stored);
  } catch {
    // never the value itself in the log (docs/conventions.md)
    log.error({ option: key }, "a secret option cannot be opened (ENCRYPTION_KEY changed?): it is treated as not set");
    return "";
  }
}

/**
 * Start-up step (lib/boot.ts): a secret option still stored in plaintext (written before
 * options were sealed) is sealed in place, so that an upgrade leaves none. Returns the keys
 * sealed. A value in the sealed shape is left as it is (one that does not open, sealed with
 * another ENCRYPTION_KEY, reads as not set).
 */
export async function sealPlaintextSecretOptions(): Promise<string[]> {
  const rows = await db().option.findMany({ where: { key: { in: [...SECRET_OPTION_KEYS] } } });
  const sealed: string[] = [];
  for (const row of rows) {
    if (!row.value || isSealed(row.value)) continue;
    await db().option.update({ where: { key: row.key }, data: { value: seal(row.value) } });
    sealed.push(row.key);
  }
  return sealed;
}

export function getOption(key: OptionKey): string {
  return holder().values.get(key) ?? OPTION_DEFAULTS[key];
}

export function getBool(key: OptionKey): boolean {
  return getOption(key) === "true";
}

export function getNumber(key: OptionKey, fallback = 0): number {
  const n = Number(getOption(key));
  return Number.isFinite(n) ? n : fallback;
}

// Parsed JSON options, kept until the option's text changes: the relay reads the price
// maps on every call. Callers must treat the returned value as read-only.
const parsed = new Map<OptionKey, { raw: string; value: unknown }>();

export function getJson<T>(key: OptionKey, fallback: T): T {
  const raw = getOption(key);
  const hit = parsed.get(key);
  if (hit && hit.raw === raw) return hit.value as T;
  try {
    const value = JSON.parse(raw) as T;
    parsed.set(key, { raw, value });
    return value;
  } catch {
    return fallback;
  }
}

export function allOptions(): Map<OptionKey, string> {
  return new Map(holder().values);
}

// Writes one option (already validated by the caller) and updates the cache.
export async function setOption(key: OptionKey, value: string): Promise<void> {
  const stored = value && SECRET_OPTION_KEYS.has(key) ? seal(value) : value;
  await db().option.upsert({ where: { key }, create: { key, value: stored }, update: { value: stored } });
  applyOption(key, value);
  await publishInvalidation("options", key);
}

// Updates this process's cache only (setOption and tests that run lib code in-process).
export function applyOption(key: OptionKey, value: string): void {
  holder().values.set(key, value);
  notifyApplied();
}

// Another node changed an option: reload them all (a handful of rows).
onInvalidate((topic) => (topic === "options" ? loadOptions() : undefined));

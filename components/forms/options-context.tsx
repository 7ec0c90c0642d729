"use client";
// The loaded options of the settings page, shared with every section below it
// (docs/settings.md). `options` holds what GET /api/option/ returned (secrets as ""),
// `secretsSet` whether each secret the caller may see is saved, `writable` what the
// caller may save (lib/options/access.ts), `reload` fetches them again.
import { createContext, useContext, type ReactNode } from "react";

export type OptionsState = {
  options: Record<string, string>;
  secretsSet: Record<string, boolean>;
  writable: Record<string, boolean>;
  reload: () => Promise<void>;
};

const OptionsContext = createContext<OptionsState | null>(null);

export function OptionsProvider({ value, children }: { value: OptionsState; children: ReactNode }) {
  return <OptionsContext.Provider value={value}>{children}</OptionsContext.Provider>;
}

export function useOptionsState(): OptionsState {
  const state = useContext(OptionsContext);
  if (!state) throw new Error("useOptionsState outside <OptionsProvider>");
  return state;
}

/** Whether the option is known to the caller (listed by the server), and whether it may be saved. */
export function useOptionAccess(key: string): { visible: boolean; writable: boolean } {
  const { options, secretsSet, writable } = useOptionsState();
  return { visible: key in options || key in secretsSet, writable: writable[key] === true };
}

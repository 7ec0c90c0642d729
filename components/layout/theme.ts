// Dark/light theme, remembered under theme-mode. THEME_SCRIPT runs in <head> before the
// first paint, so a dark page never flashes light.
import { STORAGE_KEYS } from "@/lib/client/storage";

export type ThemeMode = "light" | "dark";

export const THEME_SCRIPT = `(function(){try{var m=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.themeMode)});var d=m?m==="dark":window.matchMedia("(prefers-color-scheme: dark)").matches;document.documentElement.classList.toggle("dark",d);document.documentElement.style.colorScheme=d?"dark":"light";}catch(e){}})();`;

export function applyTheme(mode: ThemeMode) {
  document.documentElement.classList.toggle("dark", mode === "dark");
  document.documentElement.style.colorScheme = mode;
  localStorage.setItem(STORAGE_KEYS.themeMode, mode);
}

export function currentTheme(): ThemeMode {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

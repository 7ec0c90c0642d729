"use client";
import { Moon, Sun } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { applyTheme, currentTheme, type ThemeMode } from "./theme";

export function ThemeToggle() {
  const t = useTranslations("shell");
  const [mode, setMode] = useState<ThemeMode>("light");
  useEffect(() => setMode(currentTheme()), []);
  const next: ThemeMode = mode === "dark" ? "light" : "dark";
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={t(next === "dark" ? "switchToDark" : "switchToLight")}
      title={t(next === "dark" ? "switchToDark" : "switchToLight")}
      onClick={() => {
        applyTheme(next);
        setMode(next);
      }}
    >
      {mode === "dark" ? <Sun aria-hidden className="h-4 w-4" /> : <Moon aria-hidden className="h-4 w-4" />}
    </Button>
  );
}

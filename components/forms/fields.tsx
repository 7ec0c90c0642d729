"use client";
// Field components for option forms (docs/settings.md): each is bound by its option key to
// the surrounding section's react-hook-form (SettingsSection provides it), shows the rule's
// message under itself, is hidden when the caller cannot read the option and disabled when
// it cannot save it (lib/options/access.ts).
import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";
import { useController, useFormContext } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/lib/client/toast";
import { numberRule } from "@/lib/options/rules";
import { fieldName } from "./field-name";
import { useOptionAccess, useOptionsState } from "./options-context";
import { putOption } from "./put-option";
import { QuotaInput } from "./quota-input";
import { useConfirm } from "./use-confirm";

type Base = { name: string; label: ReactNode; hint?: ReactNode; className?: string };

function useOptionField(name: string) {
  const { control } = useFormContext<Record<string, string>>();
  const { field, fieldState } = useController({ control, name: fieldName(name) });
  const access = useOptionAccess(name);
  return { field, error: fieldState.error?.message, ...access };
}

function FieldFrame({
  id,
  label,
  hint,
  error,
  readOnlyNote,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  readOnlyNote?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const t = useTranslations("settingsKit");
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)} data-option-field>
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children}
      {error ? (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>
      ) : null}
      {readOnlyNote && <p className="text-xs text-amber-700 dark:text-amber-400">{t("rootOnly")}</p>}
    </div>
  );
}

/** A boolean option ("true"/"false"). `confirm` may refuse a change (the switch then stays as it was). */
export function OptionSwitch({ name, label, hint, confirm }: Base & { confirm?: (next: boolean) => boolean | Promise<boolean> }) {
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  const onChange = async (next: boolean) => {
    if (confirm && !(await confirm(next))) return;
    field.onChange(next ? "true" : "false");
  };
  return (
    <div className="flex flex-col gap-1" data-option-field>
      <Switch checked={field.value === "true"} onChange={onChange} label={label} hint={hint} disabled={!writable} />
      {error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A number with the rule's bounds (its rule in lib/options/registry.ts) unless given. */
export function OptionNumber({
  name,
  label,
  hint,
  className,
  min,
  max,
  step,
  suffix,
}: Base & { min?: number; max?: number; step?: number | "any"; suffix?: ReactNode }) {
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  const range = numberRule(name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} readOnlyNote={!writable} className={className}>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={min ?? range?.min}
          max={max ?? range?.max}
          step={step ?? (range?.int ? 1 : range?.decimals !== undefined ? 10 ** -range.decimals : "any")}
          aria-invalid={error ? true : undefined}
          disabled={!writable}
          className={cn("w-full", error && "border-red-500")}
          {...field}
        />
        {suffix && <span className="shrink-0 text-sm text-zinc-500">{suffix}</span>}
      </div>
    </FieldFrame>
  );
}

/**
 * A quota option (whole units) typed in the display unit with the conversion shown
 * (components/forms/quota-input.tsx); the stored value stays units.
 */
export function OptionQuota({ name, label, hint, className }: Base) {
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} readOnlyNote={!writable} className={className}>
      <QuotaInput
        id={id}
        name={field.name}
        value={field.value ?? ""}
        onChange={field.onChange}
        onBlur={field.onBlur}
        disabled={!writable}
        aria-invalid={error ? true : undefined}
        className={cn(error && "border-red-500")}
      />
    </FieldFrame>
  );
}

export function OptionText({ name, label, hint, className, placeholder, type = "text" }: Base & { placeholder?: string; type?: "text" | "url" | "email" }) {
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} readOnlyNote={!writable} className={className}>
      <Input
        id={id}
        type={type}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        disabled={!writable}
        className={cn("w-full", error && "border-red-500")}
        {...field}
      />
    </FieldFrame>
  );
}

/**
 * A choice among `choices`. A saved value that is none of them is not shown as if chosen:
 * `unlisted` labels it (an exempt group that does not exist reads "no group chosen").
 */
export function OptionSelect({
  name,
  label,
  hint,
  className,
  choices,
  unlisted,
}: Base & { choices: { value: string; label: ReactNode }[]; unlisted?: (value: string) => string }) {
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  const stray = unlisted && !choices.some((c) => c.value === field.value);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} readOnlyNote={!writable} className={className}>
      <Select id={id} disabled={!writable} className="w-full" {...field}>
        {stray && (
          <option value={field.value} disabled>
            {unlisted(field.value)}
          </option>
        )}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </Select>
    </FieldFrame>
  );
}

/**
 * Multi-line text; `code` uses a monospace font (HTML, CSS, JavaScript). `rows` is a count,
 * or [min, max]: the area grows with its lines between the two.
 */
export function OptionTextarea({
  name,
  label,
  hint,
  className,
  rows: rowsSpec = 4,
  code = false,
  placeholder,
}: Base & { rows?: number | [number, number]; code?: boolean; placeholder?: string }) {
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  const rows = typeof rowsSpec === "number" ? rowsSpec : Math.min(rowsSpec[1], Math.max(rowsSpec[0], (field.value ?? "").split("\n").length));
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} readOnlyNote={!writable} className={className}>
      <Textarea
        id={id}
        rows={rows}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        disabled={!writable}
        className={cn(code && "font-mono text-xs", error && "border-red-500")}
        {...field}
      />
    </FieldFrame>
  );
}

/**
 * A JSON option, pretty-printed on load; the shared rule refuses text that does not parse
 * (不是合法的 JSON 字符串) as it is typed. "Format" re-indents valid JSON.
 */
export function OptionJson({ name, label, hint, className, rows = 8 }: Base & { rows?: number }) {
  const t = useTranslations("settingsKit");
  const id = useId();
  const { field, error, visible, writable } = useOptionField(name);
  if (!visible) return null;
  const format = () => {
    try {
      field.onChange(JSON.stringify(JSON.parse(field.value), null, 2));
    } catch {
      // invalid JSON stays as typed; the field shows why
    }
  };
  return (
    <FieldFrame
      id={id}
      label={
        <span className="flex items-center justify-between gap-2">
          <span>{label}</span>
          {writable && (
            <button type="button" onClick={format} className="text-xs font-normal text-blue-600 hover:underline dark:text-blue-400">
              {t("formatJson")}
            </button>
          )}
        </span>
      }
      hint={hint}
      error={error}
      readOnlyNote={!writable}
      className={className}
    >
      <Textarea
        id={id}
        rows={rows}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        disabled={!writable}
        className={cn("font-mono text-xs", error && "border-red-500")}
        {...field}
      />
    </FieldFrame>
  );
}

/** One keyword per line, matched case-insensitively by the server. */
export function OptionKeywords({ name, label, hint, className, rows = 6 }: Base & { rows?: number }) {
  const t = useTranslations("settingsKit");
  return <OptionTextarea name={name} label={label} hint={hint ?? t("onePerLine")} className={className} rows={rows} />;
}

/**
 * A write-only secret: the server never sends its value, so the field starts empty and
 * says whether one is saved; left empty it is not sent (the saved value stays). A saved one
 * is deleted with the Clear button, after a confirmation: it saves the empty value at once
 * (docs/settings.md, "The forms kit").
 */
export function OptionSecret({ name, label, hint, className }: Base) {
  const t = useTranslations("settingsKit");
  const id = useId();
  const { secretsSet, reload } = useOptionsState();
  const { field, error, visible, writable } = useOptionField(name);
  const [clearing, setClearing] = useState(false);
  const confirmClear = useConfirm({
    title: t("secretClearTitle", { name: typeof label === "string" ? label : name }),
    description: t("secretClearDescription"),
    action: t("secretClear"),
    danger: true,
  });
  if (!visible) return null;
  const set = secretsSet[name] === true;
  const clear = async () => {
    if (!(await confirmClear.ask())) return;
    setClearing(true);
    try {
      // a refusal's message is shown by the request itself (lib/client/api.ts)
      if (!(await putOption({ key: name, value: "" })).ok) return;
      toast.success({ key: "settingsKit.secretCleared" });
      try {
        await reload();
      } catch {
        toast.error({ key: "settingsKit.refreshFailed" });
      }
    } finally {
      setClearing(false);
    }
  };
  return (
    <FieldFrame
      id={id}
      label={
        <span className="flex items-center gap-2">
          <span>{label}</span>
          <span
            data-secret-state={set ? "set" : "unset"}
            className={cn(
              "rounded px-1.5 py-0.5 text-xs font-normal",
              set ? "bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300" : "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400",
            )}
          >
            {set ? t("secretSet") : t("secretUnset")}
          </span>
        </span>
      }
      hint={hint ?? t("secretHint")}
      error={error}
      readOnlyNote={!writable}
      className={className}
    >
      <div className="flex items-center gap-2">
        <Input
          id={id}
          type="password"
          autoComplete="new-password"
          placeholder={set ? t("secretKeep") : ""}
          disabled={!writable}
          className="w-full"
          {...field}
        />
        {set && writable && (
          <Button variant="secondary" size="sm" className="shrink-0" disabled={clearing} onClick={clear} data-secret-clear={name}>
            {t("secretClear")}
          </Button>
        )}
      </div>
      {confirmClear.dialog}
    </FieldFrame>
  );
}

/** Fields side by side on wide screens, one per row on a phone. */
export function FieldGrid({ children, cols = 3 }: { children: ReactNode; cols?: 1 | 2 | 3 }) {
  return <div className={cn("grid grid-cols-1 gap-4", cols >= 2 && "md:grid-cols-2", cols === 3 && "xl:grid-cols-3")}>{children}</div>;
}

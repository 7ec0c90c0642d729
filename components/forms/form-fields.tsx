"use client";
// Field components bound by name to the surrounding react-hook-form (FormProvider): each
// keeps the look of components/ui's labelled inputs and shows its field's refusal under it,
// in place of the hint (docs/console-ui.md, "Forms"). A refused control is outlined red by
// `aria-invalid:` (an attribute selector outranks the primitive's border colour, which a
// plain class would not replace).
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useController, useFormContext, type FieldValues, type Path } from "react-hook-form";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { UnixTimePicker } from "@/components/ui/date-time-picker";
import { parseExpiry, toLocalInput } from "@/lib/client/tokens";
import { QuotaInput, type QuotaInputProps } from "./quota-input";

type Base = { name: string; label: ReactNode; hint?: ReactNode; className?: string };

function useBound(name: string) {
  const { control } = useFormContext<FieldValues>();
  const { field, fieldState } = useController({ control, name: name as Path<FieldValues> });
  return { field, error: fieldState.error?.message };
}

// A text-like control bound to its field: the props every input, select and textarea takes,
// spread after the caller's own so that the form owns the value.
function useBoundControl(name: string) {
  const id = useId();
  const { field, error } = useBound(name);
  const control = {
    id,
    "aria-invalid": error ? true : undefined,
    name: field.name,
    value: field.value ?? "",
    onChange: field.onChange,
    onBlur: field.onBlur,
  };
  return { id, error, control };
}

function Frame({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children}
      <FieldError error={error} hint={hint} />
    </div>
  );
}

function FieldError({ error, hint }: { error?: string; hint?: ReactNode }) {
  if (error) {
    return (
      <p role="alert" className="text-xs text-red-600 dark:text-red-400">
        {error}
      </p>
    );
  }
  return hint ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange" | "onBlur" | "defaultValue">;

/** A text input (also password, email, numeric text: values stay strings). */
export function FormText({ name, label, hint, className, ...props }: Base & InputProps) {
  const { id, error, control } = useBoundControl(name);
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className}>
      <Input className="w-full aria-invalid:border-red-500" {...props} {...control} />
    </Frame>
  );
}

/** A number input whose value stays the typed text (the schema reads it as a number). */
export function FormNumber(props: Base & InputProps) {
  return <FormText type="number" inputMode="decimal" {...props} />;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "value" | "onChange" | "onBlur" | "defaultValue">;

export function FormSelect({ name, label, hint, className, children, ...props }: Base & SelectProps & { children: ReactNode }) {
  const { id, error, control } = useBoundControl(name);
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className}>
      <Select className="w-full aria-invalid:border-red-500" {...props} {...control}>
        {children}
      </Select>
    </Frame>
  );
}

type TextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "value" | "onChange" | "onBlur" | "defaultValue">;

export function FormTextarea({ name, label, hint, className, mono = false, ...props }: Base & TextareaProps & { mono?: boolean }) {
  const { id, error, control } = useBoundControl(name);
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className}>
      <Textarea className={cn(mono && "font-mono", "aria-invalid:border-red-500")} {...props} {...control} />
    </Frame>
  );
}

/** A boolean field as a switch. */
export function FormSwitch({ name, label, hint, disabled }: Omit<Base, "className"> & { disabled?: boolean }) {
  const { field, error } = useBound(name);
  return (
    <div className="flex flex-col gap-1">
      <Switch checked={field.value === true} onChange={(v) => field.onChange(v)} label={label} hint={hint} disabled={disabled} />
      <FieldError error={error} />
    </div>
  );
}

/**
 * A quota amount in units, typed in the display unit (components/forms/quota-input.tsx): the
 * field's value stays the units as decimal text, which the form's units rule checks.
 */
export function FormQuota({ name, label, hint, className, ...props }: Base & Omit<QuotaInputProps, "value" | "onChange" | "name">) {
  const { id, error, control } = useBoundControl(name);
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className}>
      <QuotaInput
        {...props}
        id={id}
        name={control.name}
        aria-invalid={control["aria-invalid"]}
        className="aria-invalid:border-red-500"
        value={String(control.value)}
        onChange={control.onChange}
        onBlur={control.onBlur}
      />
    </Frame>
  );
}

/**
 * A date and time picked with the console's one picker (components/ui/date-time-picker.tsx),
 * held as "YYYY-MM-DD HH:mm:ss" in the browser's time zone, "" for none (`placeholder` says
 * what none means).
 */
export function FormDateTime({ name, label, hint, className, placeholder }: Base & { placeholder?: string }) {
  const { id, error, control } = useBoundControl(name);
  const text = String(control.value ?? "");
  const seconds = parseExpiry(text);
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className}>
      <UnixTimePicker
        id={id}
        label={typeof label === "string" ? label : name}
        placeholder={placeholder}
        value={seconds !== null && seconds > 0 ? seconds : null}
        onChange={(v) => control.onChange(v === null ? "" : toLocalInput(v))}
      />
    </Frame>
  );
}

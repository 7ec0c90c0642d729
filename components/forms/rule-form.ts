// react-hook-form bound to a zod schema shared with the server (docs/console-ui.md, "Forms"):
// a rule's message "msg:<key>" is rendered in the person's language from the server's
// catalogue (lib/i18n/server-messages.ts), exactly as route() renders it, so the form and
// the server refuse with the same text.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { useForm, type DefaultValues, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";
import { say, type MessageKey, type ServerCatalogue } from "@/lib/i18n/render";
import { toast } from "@/lib/client/toast";

/** "msg:<key>" in the catalogue's language; any other text as it is. */
export function ruleMessage(message: string | undefined, catalogue: ServerCatalogue): string {
  if (!message) return "";
  return message.startsWith("msg:") ? say(catalogue, message.slice(4) as MessageKey) : message;
}

/**
 * The first refusal of a schema for a value, in the catalogue (null when it passes): what the
 * form shows, and what route() answers for the same rule.
 */
export function firstRefusal(schema: z.ZodType, value: unknown, catalogue: ServerCatalogue): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : ruleMessage(r.error.issues[0]?.message, catalogue);
}

// As route() words a refusal: a "msg:" key in the catalogue, zod's own messages as
// "Invalid parameter: <field>".
function localize(errors: FieldErrors, catalogue: ServerCatalogue, prefix = ""): FieldErrors {
  for (const [name, e] of Object.entries(errors)) {
    if (!e || typeof e !== "object") continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (typeof e.message === "string") {
      // a custom issue's text is already the message (a schema built for a catalogue)
      if (e.message.startsWith("msg:")) e.message = ruleMessage(e.message, catalogue);
      else if (e.type !== "custom") e.message = say(catalogue, "invalid_parameter_detail", { detail: path });
    } else localize(e as FieldErrors, catalogue, path);
  }
  return errors;
}

/** zodResolver with the rule messages rendered in the catalogue. */
export function ruleResolver<T extends FieldValues>(schema: z.ZodType, catalogue: ServerCatalogue): Resolver<T> {
  // The form values are the schema's input; the submit handler reads the raw values.
  const inner = zodResolver(schema as never, undefined, { raw: true }) as unknown as Resolver<T>;
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    localize(result.errors as FieldErrors, catalogue);
    return result;
  };
}

/**
 * A form checked by a shared schema. A refusal shows under its field and, as the console's
 * other refusals do, in a toast (the first one only).
 */
export function useRuleForm<T extends FieldValues>(schema: z.ZodType, defaultValues: DefaultValues<T>) {
  const catalogue = useServerCatalogue();
  const resolver = useMemo(() => ruleResolver<T>(schema, catalogue), [schema, catalogue]);
  return useForm<T>({ resolver, defaultValues, mode: "onSubmit", reValidateMode: "onChange" });
}

/** handleSubmit's second argument: the first refusal as a toast, worded as a server refusal is. */
export function toastFirstError(errors: FieldErrors) {
  const first = firstMessage(errors);
  if (first) toast.error({ key: "errors.prefixed", values: { message: first } });
}

function firstMessage(errors: FieldErrors): string | null {
  for (const e of Object.values(errors)) {
    if (!e || typeof e !== "object") continue;
    if (typeof e.message === "string" && e.message) return e.message;
    const nested = firstMessage(e as FieldErrors);
    if (nested) return nested;
  }
  return null;
}

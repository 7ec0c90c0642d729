// The user editor's form: its values and the schema that checks them with the server's
// rules (lib/users/field-rules.ts), so a refusal reads as the server's would.
import { z } from "zod";
import type { QuotaDisplay } from "@/lib/client/format";
import { LIMIT_KINDS, LIMIT_FIELDS, limitTexts, limitValues, parseLimitInput, type LimitField } from "@/lib/client/limits";
import type { User } from "@/lib/client/user";
import { displayName, password, quotaAmount, updateUserBody, username } from "@/lib/users/field-rules";

export type UserEditorForm = {
  username: string;
  display_name: string;
  password: string;
  original_password: string;
  group: string;
  quota: string;
  remark: string;
} & Record<LimitField, string>; // the user's own limits as typed (blank: the group's default applies, -1: none)

const UNITS: QuotaDisplay = { displayInCurrency: false, quotaPerUnit: 500000 };

export const userToForm = (u: User, display: QuotaDisplay = UNITS): UserEditorForm => ({
  username: u.username,
  display_name: u.display_name,
  password: "", // never loaded: blank keeps the current password
  original_password: "",
  group: u.group,
  quota: String(u.quota),
  remark: u.remark ?? "",
  ...limitTexts(limitValues(u, true), display),
});

/** A rule that applies when the field is filled (a blank password keeps the current one). */
function blankOr(rule: z.ZodType) {
  return z.string().superRefine((v, ctx) => {
    if (v === "") return;
    const r = rule.safeParse(v);
    if (!r.success) ctx.addIssue({ code: "custom", message: r.error.issues[0]?.message ?? "msg:invalid_parameter" });
  });
}

/**
 * A limit field as typed → its value (quotas in the display unit); refused as the route
 * refuses a bad field ("Invalid parameter: <field>").
 */
function limitRule(kind: (typeof LIMIT_KINDS)[number], display: QuotaDisplay) {
  return z
    .string()
    .optional()
    .transform((v) => parseLimitInput(kind, v ?? "", display, true) ?? Number.NaN)
    .pipe(z.number().int().min(-1));
}

/** The user's limits of valid form values, for PUT /api/user/ (quotas in units). */
export function userLimitsBody(form: UserEditorForm, display: QuotaDisplay = UNITS): Record<LimitField, number> {
  const out = {} as Record<LimitField, number>;
  for (const k of LIMIT_KINDS) out[LIMIT_FIELDS[k]] = parseLimitInput(k, form[LIMIT_FIELDS[k]] ?? "", display, true) ?? 0;
  return out;
}

/** `other`: an admin editing another user (username, group, quota, remark and limits editable). */
export function userEditorSchema(other: boolean, display: QuotaDisplay = UNITS) {
  const s = z.string();
  const limits = Object.fromEntries(LIMIT_KINDS.map((k) => [LIMIT_FIELDS[k], other ? limitRule(k, display) : s.optional()])) as unknown as Record<
    LimitField,
    z.ZodType
  >;
  return z.object({
    username: other ? username : s,
    display_name: displayName,
    password: blankOr(password),
    original_password: s,
    group: other ? updateUserBody.shape.group.unwrap() : s,
    // the text as typed: the shared rule's string form (a zod union would report its first branch)
    quota: other
      ? s
          .trim()
          .regex(/^\d+$/, "msg:quota_invalid")
          .transform(Number)
          .pipe(quotaAmount as unknown as z.ZodType<number, number>)
      : s,
    remark: other ? updateUserBody.shape.remark.unwrap() : s,
    ...limits,
  });
}

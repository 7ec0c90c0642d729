// Input shapes of the account calls. Custom messages "msg:<key>" are rendered in the
// caller's language by route(). Limits: username at most 12 characters, password 8 to 20
// (docs/product-rules.md, "Accounts"). Pure: the console's forms check with the same
// schemas (docs/console-ui.md, "Forms"); lib/users/schemas.ts is the server's entry.
import { z } from "zod";
import { MAX_PAGE } from "@/lib/http/params";
import { userLimitFields } from "@/lib/limits/fields";

export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DISPLAY_NAME_MAX = 20;

const str = z.string();

export const username = str.trim().min(1, "msg:username_password_empty").max(USERNAME_MAX, "msg:username_too_long");
export const password = str.min(PASSWORD_MIN, "msg:password_too_short").max(PASSWORD_MAX, "msg:password_too_long");
export const displayName = str.trim().max(DISPLAY_NAME_MAX, "msg:display_name_too_long");

// A quota amount in units: a non-negative safe integer, as a JSON number or numeric string.
export const quotaAmount = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, "msg:quota_invalid").transform(Number)], { error: "msg:quota_invalid" })
  .pipe(z.number({ error: "msg:quota_invalid" }).int("msg:quota_invalid").min(0, "msg:quota_invalid").max(Number.MAX_SAFE_INTEGER, "msg:quota_invalid"));

export const loginBody = z.object({
  username: str.trim().min(1, "msg:login_required_fields").max(100, "msg:login_failed"),
  password: str.min(1, "msg:login_required_fields").max(100, "msg:login_failed"),
});

const registerFields = z.object({
  username,
  password,
  password2: str.optional(),
  email: str
    .trim()
    .max(100, "msg:email_invalid")
    .refine((e) => e === "" || z.email().safeParse(e).success, "msg:email_invalid")
    .optional()
    .default(""),
  verification_code: str.trim().optional().default(""),
  wechat_verification_code: str.optional(),
  aff_code: str.trim().max(32).optional().default(""),
});
const passwordsMatch = (b: { password: string; password2?: string }) => b.password2 === undefined || b.password2 === b.password;

export const registerBody = registerFields.refine(passwordsMatch, { message: "msg:passwords_differ", path: ["password2"] });

// The register form checks what the product spec lists for it (a password of at least 8, the
// two typed equal); the 20-character maximum is the server's alone, whose refusal the form
// shows (docs/product-rules.md, "Accounts").
export const registerForm = registerFields
  .extend({ password: str.min(PASSWORD_MIN, "msg:password_too_short") })
  .refine(passwordsMatch, { message: "msg:passwords_differ", path: ["password2"] });

// The console's password change: the new password's rule, typed twice (the server checks the
// rule again and the original password).
export const passwordChange = z
  .object({ original_password: str, password, password2: str })
  .refine((b) => b.password2 === b.password, { message: "msg:passwords_differ", path: ["password2"] });

// A first password (an account made through a provider has none): no original to give.
export const firstPasswordSet = z
  .object({ password, password2: str })
  .refine((b) => b.password2 === b.password, { message: "msg:passwords_differ", path: ["password2"] });

/** A webhook address must use https (and be given when webhooks are chosen). */
export function webhookRefusal(notifyType: string | undefined, webhookUrl: string | undefined): "webhook_https_only" | null {
  if (notifyType === "webhook" && !/^https:\/\/[^\s/]+/i.test(webhookUrl ?? "")) return "webhook_https_only";
  if (webhookUrl && !/^https:\/\//i.test(webhookUrl)) return "webhook_https_only";
  return null;
}

export const updateSelfBody = z.object({
  display_name: displayName.optional(),
  password: str.optional(),
  original_password: str.optional(),
});

export const pageQuery = z.object({
  p: z.coerce.number().int().min(0).max(MAX_PAGE).optional(),
  page_size: z.coerce.number().int().min(1).max(100).optional().default(10),
});

export const searchQuery = pageQuery.extend({
  keyword: str.trim().max(100).optional().default(""),
  group: str.trim().max(64).optional().default(""),
});

export const createUserBody = z.object({
  username: str.trim().min(1, "msg:username_password_empty").max(USERNAME_MAX, "msg:username_too_long"),
  password: str.min(1, "msg:username_password_empty").pipe(password),
  display_name: displayName.optional().default(""),
  role: z
    .union([z.literal(1), z.literal(10), z.literal(100)], { error: "msg:invalid_parameter" })
    .optional()
    .default(1),
});

export const updateUserBody = z.object({
  id: z.number({ error: "msg:invalid_parameter" }).int().positive("msg:invalid_parameter"),
  username: username.optional(),
  display_name: displayName.optional(),
  password: str.optional(), // blank keeps the current password
  group: str.trim().min(1, "msg:invalid_parameter").max(64).optional(),
  quota: quotaAmount.optional(),
  email: str
    .trim()
    .max(100)
    .refine((e) => e === "" || z.email().safeParse(e).success, "msg:email_invalid")
    .optional(),
  remark: str.max(255).optional(),
  // usage limits (docs/usage-limits.md): 0 = the group's default, -1 = none
  ...userLimitFields,
});

export const manageBody = z.object({
  id: z.number({ error: "msg:invalid_parameter" }).int().positive("msg:invalid_parameter"),
  action: z.enum(["promote", "demote", "disable", "enable", "delete"], { error: "msg:invalid_parameter" }),
});

export const affTransferBody = z.object({ quota: quotaAmount });

export const settingBody = z.object({
  notify_type: z.enum(["email", "webhook"], { error: "msg:invalid_parameter" }).optional(),
  quota_warning_threshold: z.coerce
    .number({ error: "msg:threshold_invalid" })
    .refine((n) => Number.isFinite(n) && n > 0, "msg:threshold_invalid")
    .optional(),
  webhook_url: str.trim().max(500).optional(),
  webhook_secret: str.max(500).optional(),
  notification_email: str
    .trim()
    .max(100)
    .refine((e) => e === "" || z.email().safeParse(e).success, "msg:notify_email_invalid")
    .optional(),
  accept_unset_model_ratio_model: z.boolean({ error: "msg:invalid_parameter" }).optional(),
  show_ip_in_logs: z.boolean({ error: "msg:invalid_parameter" }).optional(),
});
export type SettingInput = z.infer<typeof settingBody>;

// E-mail codes, binding and password reset (docs/accounts-api.md). The human-check result
// (turnstile) is accepted here; its check belongs to the human-check work.
const emailParam = str.trim().max(200, "msg:email_invalid").optional().default("");
export const verificationQuery = z.object({ email: emailParam, turnstile: str.optional() });
export const emailBindQuery = z.object({ email: emailParam, code: str.trim().max(64).optional().default("") });
export const resetRequestQuery = z.object({ email: emailParam, turnstile: str.optional() });
export const resetBody = z.object({ email: emailParam, token: str.trim().max(128).optional().default("") });
export const testMailBody = z.object({ to: str.trim().max(200, "msg:email_invalid").optional().default("") });

// GET /api/usage/limits's query (docs/api-reference.md, "Usage limits"): a session's own
// token, or (an admin) a user; neither: the caller's own limits.
const queryId = z.coerce
  .number({ error: "msg:invalid_parameter" })
  .int("msg:invalid_parameter")
  .positive("msg:invalid_parameter")
  .max(2_147_483_647, "msg:invalid_parameter");
// token_ids: up to 100 of the caller's tokens at once, comma-separated (the token list's meters)
export const TOKEN_IDS_MAX = 100;
const tokenIds = z
  .string()
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, "msg:invalid_parameter")
  .transform((s) => [...new Set(s.split(",").map(Number))])
  .refine((ids) => ids.length <= TOKEN_IDS_MAX && ids.every((id) => id <= 2_147_483_647), "msg:invalid_parameter");
export const usageLimitsQuery = z.object({ token_id: queryId.optional(), token_ids: tokenIds.optional(), user_id: queryId.optional() });

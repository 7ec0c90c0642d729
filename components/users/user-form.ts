// The user editor's form: its values and the schema that checks them with the server's
// rules (lib/users/field-rules.ts), so a refusal reads as the server's would.
import { z } from "zod";
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
};

export const userToForm = (u: User): UserEditorForm => ({
  username: u.username,
  display_name: u.display_name,
  password: "", // never loaded: blank keeps the current password
  original_password: "",
  group: u.group,
  quota: String(u.quota),
  remark: u.remark ?? "",
});

/** A rule that applies when the field is filled (a blank password keeps the current one). */
function blankOr(rule: z.ZodType) {
  return z.string().superRefine((v, ctx) => {
    if (v === "") return;
    const r = rule.safeParse(v);
    if (!r.success) ctx.addIssue({ code: "custom", message: r.error.issues[0]?.message ?? "msg:invalid_parameter" });
  });
}

/** `other`: an admin editing another user (username, group, quota and remark editable). */
export function userEditorSchema(other: boolean) {
  const s = z.string();
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
  });
}

// The root account's rules at first-run setup, shared by the server (lib/setup/run-setup.ts)
// and the setup form, so both refuse with the same message (docs/console-ui.md, "Forms").
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from "@/lib/users/field-rules";

export const setupRoot = z
  .object({
    username: z.string().trim().min(1, "msg:setup_username_required").max(USERNAME_MAX, "msg:username_too_long"),
    password: z.string().min(PASSWORD_MIN, "msg:setup_password_short").max(PASSWORD_MAX, "msg:password_too_long"),
    confirmPassword: z.string(),
  })
  .refine((b) => b.password === b.confirmPassword, { message: "msg:setup_password_mismatch", path: ["confirmPassword"] });

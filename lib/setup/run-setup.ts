// First-run setup: creates the root account (when none exists), saves the usage mode and
// records the setup row. Two concurrent calls cannot both succeed: the setup row is always
// id 1 (a primary key), so the second transaction fails on the key and rolls back its root.
// The root it creates is signed in at once (a session cookie, as at login), so the first
// page after setup is the console with its first steps (docs/accounts-api.md).
import "server-only";
import { z } from "zod";
import { hashPassword } from "@/lib/auth/password";
import { ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import type { User } from "@/generated/sqlite/client";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { setOption } from "@/lib/options/store";
import { setupRoot } from "@/lib/setup/field-rules";
import { isSetupDone, markSetupDone, rootExists } from "@/lib/setup/state";
import { newAffCode } from "@/lib/users/aff-code";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { startSession } from "@/lib/sessions/start";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { APP_VERSION } from "@/lib/version";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export const setupBody = z.object({
  username: z.string().optional().default(""),
  password: z.string().optional().default(""),
  confirmPassword: z.string().optional().default(""),
  SelfUseModeEnabled: z.boolean({ error: "msg:invalid_parameter" }).optional().default(false),
  DemoSiteEnabled: z.boolean({ error: "msg:invalid_parameter" }).optional().default(false),
});
export type SetupInput = z.infer<typeof setupBody>;

const SETUP_ROW_ID = 1;

// The root created by this setup and its session cookie; null when the root existed before.
export type SetupResult = { user: PublicUser; cookie: string } | null;

export async function runSetup({ ctx, input }: { ctx: Ctx; input: SetupInput }): Promise<SetupResult> {
  if (await isSetupDone()) throw new AppError("RULE", "setup_already_done");
  let root: { username: string; hash: string } | null = null;
  if (!(await rootExists())) {
    const checked = setupRoot.safeParse(input);
    if (!checked.success) throw new AppError("INVALID_INPUT", (checked.error.issues[0]?.message ?? "msg:invalid_parameter").slice(4) as MessageKey);
    const username = checked.data.username;
    // Hash before the transaction: scrypt is slow and must not hold the database.
    root = { username, hash: await hashPassword(input.password) };
  }
  const now = BigInt(nowSeconds());
  let created: User | null;
  try {
    created = await db().$transaction(async (tx) => {
      await tx.setup.create({ data: { id: SETUP_ROW_ID, version: APP_VERSION, initialized_at: now } });
      if (!root || (await tx.user.findFirst({ where: { role: { gte: ROLE.root } }, select: { id: true } }))) return null;
      return tx.user.create({
        data: {
          username: root.username,
          password: root.hash,
          display_name: "Root User",
          role: ROLE.root,
          status: USER_STATUS.enabled,
          aff_code: newAffCode(),
          created_time: now,
        },
      });
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "setup_already_done");
    throw err;
  }
  await setOption("SelfUseModeEnabled", String(input.SelfUseModeEnabled));
  await setOption("DemoSiteEnabled", String(input.DemoSiteEnabled));
  markSetupDone();
  if (!created) return null;
  const cookie = await startSession(ctx, created);
  await recordAudit(ctx, { action: "register", actor: created, target: { type: "user", id: created.id }, detail: { method: "setup" } });
  return { user: presentUser(created), cookie };
}

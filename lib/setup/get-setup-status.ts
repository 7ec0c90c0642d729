// The setup status (docs/product-rules.md, "Site status, setup status, browser state"): whether setup is done, whether the root account
// exists, and which database the program runs on.
import "server-only";
import { env } from "@/lib/env";
import { isSetupDone, rootExists } from "@/lib/setup/state";
import type { Ctx } from "@/lib/ctx";

export async function getSetupStatus(_args: { ctx: Ctx }) {
  return {
    status: await isSetupDone(),
    root_init: await rootExists(),
    database_type: env().databaseKind === "postgresql" ? ("postgres" as const) : ("sqlite" as const),
  };
}

// GET /api/setup: setup status (done, root exists, database kind)
import { Reply, route } from "@/lib/http/route";
import { getSetupStatus } from "@/lib/setup/get-setup-status";
import { runSetup, setupBody } from "@/lib/setup/run-setup";

export const GET = route({ access: "public" }, async ({ ctx }) => getSetupStatus({ ctx }));

// POST /api/setup: first-run setup (root account and usage mode); signs the new root in
// Rate limited like login: it takes a password and is open to anyone until done.
export const POST = route({ access: "public", body: setupBody, rateLimit: "critical" }, async ({ ctx, body }) => {
  const root = await runSetup({ ctx, input: body });
  if (!root) return new Reply({ message: ctx.t("setup_done") });
  return new Reply({ message: ctx.t("setup_done"), data: root.user, headers: { "set-cookie": root.cookie } });
});

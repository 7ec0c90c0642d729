// The first steps an administrator takes after setup (docs/console-ui.md, "First steps"): a
// channel added, a channel tested, a token of their own, a call from the playground. Each is
// read from the data, so a step is ticked as soon as it is done, wherever it was done. A read
// model for the home page, not a verb.
import "server-only";
import { db, logDb } from "@/lib/db/client";

export type FirstSteps = { channel: boolean; tested: boolean; token: boolean; playground: boolean };
export const FIRST_STEPS = ["channel", "tested", "token", "playground"] as const satisfies readonly (keyof FirstSteps)[];

// The playground's calls are logged under this token name (lib/relay/handler.ts).
const PLAYGROUND_TOKEN_NAME = "playground";

export async function firstSteps(userId: number): Promise<FirstSteps> {
  const [channel, tested, token, playground] = await Promise.all([
    db().channel.findFirst({ select: { id: true } }),
    db().channel.findFirst({ where: { test_time: { gt: 0 } }, select: { id: true } }),
    db().token.findFirst({ where: { user_id: userId }, select: { id: true } }),
    logDb().log.findFirst({ where: { token_name: PLAYGROUND_TOKEN_NAME, user_id: userId }, select: { id: true } }),
  ]);
  return { channel: !!channel, tested: !!tested, token: !!token, playground: !!playground };
}

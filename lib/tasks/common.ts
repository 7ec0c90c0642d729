// What every task submit shares: the caller (token), the price of the action's model, the
// channel, the reservation, and the public id of the task (docs/tasks.md).
import "server-only";
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { planChoice } from "@/lib/billing/reserve";
import { userPlans } from "@/lib/billing/plan-pots";
import { planExhausted, type PlanChoice } from "@/lib/billing/store/types";
import { debitPot, potRow } from "@/lib/plans/pot";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { getOption } from "@/lib/options/store";
import { env } from "@/lib/env";
import { checkTokenModel, type TokenContext } from "@/lib/relay/token-cache";
import { pinnedChannel, selectChannel, type SelectedChannel } from "@/lib/relay/select";
import { hasSensitiveWord, promptCheckApplies } from "@/lib/relay/sensitive";
import { checkRateLimit } from "@/lib/relay/rate-limit";
import { admit, callChecks, type Admission } from "@/lib/limits/engine";
import { closeTaskBilling, taskPrice, type BillingInfo, type TaskTable, SUBMIT_LIMIT_SEC } from "@/lib/tasks/billing";
import { db, type Tx } from "@/lib/db/client";
import { lookupHash } from "@/lib/auth/lookup-hash";
import { nowSeconds } from "@/lib/time";

export const nowMs = () => Date.now();

// Poll schedule (docs/tasks.md, "The poller"): every TASK_POLL_INTERVAL_SECONDS, backing off on
// upstream errors, failing (and refunding) a task still unfinished after TASK_TIMEOUT_SECONDS.
export const pollIntervalSec = () => env().TASK_POLL_INTERVAL_SECONDS;
export const taskTimeoutSec = () => env().TASK_TIMEOUT_SECONDS;
export const MAX_BACKOFF_SEC = 600;
export const backoffSec = (errors: number) => Math.min(MAX_BACKOFF_SEC, pollIntervalSec() * 2 ** Math.min(errors, 10));

// A Midjourney-proxy style id (digits: milliseconds then 9 random digits, about 30 bits from
// crypto.randomInt) or a prefixed random id. Both are unique in the database (migration 0015).
export function mjPublicId(): string {
  return `${Date.now()}${randomInt(0, 1_000_000_000).toString().padStart(9, "0")}`;
}
export function publicId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("hex")}`;
}

/**
 * A task relay call: the caller's token and the call's request id (given: the client's
 * X-Request-Id). `served` is set once the submit has its model and channel (the relay
 * counter's labels, lib/tasks/handler.ts).
 */
export type TaskCall = {
  token: TokenContext;
  requestId: { id: string; given: boolean };
  served?: { model: string; channelId: number };
  // the submit's usage limits (docs/usage-limits.md): its admission and the amount it reserves,
  // corrected by the task front once the submit is answered (lib/tasks/handler.ts)
  limits?: { admission: Admission; amount: bigint };
};

export type Submit = {
  token: TokenContext;
  model: string;
  channel: SelectedChannel;
  amount: bigint; // reserved by openTask, with the task's row
  ref: string; // the reservation's ledger ref, kept on the row as billing_ref
  info: BillingInfo;
  subscriptionId?: number; // the plan's pot the price came from (0: the balance), set by openTask
};

// Price and channel for a new task of `model`; `channelId` pins the channel of the task an
// action continues (the upstream knows that task only there). The relay's gates come first, as
// for a chat call: the token's models, the sensitive-word check of the prompt (every text the
// client wrote) and the token's and user's request rate limits. `charged` false: a step that
// costs nothing (a Midjourney action that only opens a modal) and is not priced at all.
export async function prepareSubmit(
  call: TaskCall,
  model: string,
  serves: (type: number) => boolean,
  prompt: string,
  channelId?: number,
  charged = true,
): Promise<Submit> {
  const { token, requestId } = call;
  checkTokenModel(token.token, model);
  if (promptCheckApplies(token.group) && hasSensitiveWord(prompt)) throw new AppError("INVALID_INPUT", "relay_sensitive_refused");
  await checkRateLimit({ userId: token.user.id, group: token.group, token: token.token });
  const amount = charged ? taskPrice(model, token.group, token.user.setting) : 0n;
  // the usage limits, before the channel and the reservation: RPM, concurrency for the time of
  // the submit, and the periodic quotas count the task's price (a task has no tokens)
  const counters = callChecks({ tokenId: token.token.id, token: token.token.limits, userId: token.user.id, user: token.user.limits, group: token.user.group });
  if (counters) call.limits = { admission: await admit(counters, { tokens: 0, quota: Number(amount) }), amount };
  let channel: SelectedChannel | null;
  if (channelId !== undefined) channel = await pinnedChannel(channelId, model, token.group);
  else if (token.pinnedChannelId !== null) channel = await pinnedChannel(token.pinnedChannelId, model, token.group);
  else channel = await selectChannel({ group: token.group, model, serves });
  if (!channel || !serves(channel.type)) throw new AppError("NO_CHANNEL", "no_channel_available", { group: token.group, model });
  call.served = { model, channelId: channel.id };
  const info: BillingInfo = {
    username: token.user.username,
    token_name: token.token.name,
    group: token.group,
    unlimited: token.token.unlimited_quota,
    channel_name: channel.name,
    request_id: requestId.id,
  };
  // the ledger ref is the request id when the gateway made it (unique), as on the chat relay; a
  // client's id may repeat, so its calls get a ref of their own
  return { token, model, channel, amount, ref: requestId.given ? randomUUID() : requestId.id, info };
}

// The reservation and the task's row, in one transaction: the same conditional debits as the
// relay's reservation (lib/billing/reserve.ts: the token's remaining quota unless unlimited,
// then the user's plans and balance in the user's order, neither below zero, docs/plans.md
// "Tasks") and its relay_reserve ledger row, then the row, which records the pot it came from.
// Should the insert fail, the debits roll back with it, so no reservation ever exists without
// its task (the poller can only refund what a row records). Tasks are not the hot path: Prisma
// here, not the relay's raw store.
export async function openTask<T>(s: Submit, insert: (tx: Tx) => Promise<T>): Promise<T> {
  const tokenId = s.token.token.id;
  const userId = s.token.user.id;
  const after = { remain: null as bigint | null };
  let plan: PlanChoice | null = null;
  if (s.amount > 0n) {
    let plans = userPlans(userId);
    if (plans instanceof Promise) plans = await plans;
    plan = planChoice(plans, s.model);
  }
  const row = await db().$transaction(async (tx) => {
    if (s.amount > 0n) {
      if (!s.token.token.unlimited_quota) {
        const t = await tx.token.updateMany({ where: { id: tokenId, remain_quota: { gte: s.amount } }, data: { remain_quota: { decrement: s.amount } } });
        if (t.count !== 1) throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_token");
        after.remain = (await tx.token.findUniqueOrThrow({ where: { id: tokenId }, select: { remain_quota: true } })).remain_quota;
      }
      s.subscriptionId = await reserveTaskPrice(tx, s, plan);
    }
    return insert(tx);
  });
  if (after.remain !== null) noteTokenQuota(tokenId, after.remain);
  return row;
}

// The price from the balance or a plan's pot, as the relay's store chooses (lib/billing/store):
// without plans the balance; wallet first: the balance, else the pots; plan first: the pots,
// else the balance when the user allows it. Answers the pot (0: the balance).
async function reserveTaskPrice(tx: Tx, s: Submit, plan: PlanChoice | null): Promise<number> {
  const userId = s.token.user.id;
  const tokenId = s.token.token.id;
  const now = nowSeconds();
  const wallet = async () => {
    const changed = await tx.user.updateMany({ where: { id: userId, quota: { gte: s.amount } }, data: { quota: { decrement: s.amount } } });
    if (changed.count !== 1) return false;
    const { quota } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { quota: true } });
    await tx.quotaLedger.create({
      data: { user_id: userId, token_id: tokenId, delta: -s.amount, balance_after: quota, kind: "relay_reserve", ref: s.ref, created_at: BigInt(now) },
    });
    return true;
  };
  const fromPots = async () => {
    for (const p of plan!.pots) {
      const remain = await debitPot(tx, p.id, s.amount, now);
      if (remain === null) continue;
      await potRow(tx, { userId, tokenId, subscriptionId: p.id, delta: -s.amount, balanceAfter: remain, kind: "relay_reserve", ref: s.ref, now });
      return p.id;
    }
    return null;
  };
  if (!plan?.pots.length) {
    if (await wallet()) return 0;
    throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_user");
  }
  if (plan.walletFirst) {
    if (await wallet()) return 0;
    const pot = await fromPots();
    if (pot !== null) return pot;
  } else {
    const pot = await fromPots();
    if (pot !== null) return pot;
    if (plan.fallback && (await wallet())) return 0;
  }
  if (plan.walletFirst || !plan.fallback) throw planExhausted(plan);
  throw new AppError("QUOTA_EXCEEDED", "quota_insufficient_user");
}

// The columns every new task row carries. The row is written with its reservation (openTask),
// before the upstream is called, with an empty status ("submitting") and no upstream id; its
// first poll is due only after SUBMIT_LIMIT_SEC, when the poller fails and refunds a row still
// submitting (a crash between the reservation and the upstream's answer).
export function billingColumns(s: Submit) {
  return {
    user_id: s.token.user.id,
    channel_id: s.channel.id,
    quota: s.amount,
    upstream_id: "",
    token_id: s.token.token.id,
    model_name: s.model,
    billing_ref: s.ref,
    billing_state: "reserved",
    billing_info: JSON.stringify(s.info),
    next_poll_at: BigInt(nowSeconds() + SUBMIT_LIMIT_SEC),
    subscription_id: s.subscriptionId ?? 0,
  };
}

type BillRow = Parameters<typeof closeTaskBilling>[1];

// The upstream refused (or could not be reached): the task fails and its reservation goes back,
// in one transaction. Should that transaction fail, the row stays reserved and the poller
// refunds it after SUBMIT_LIMIT_SEC.
export async function failSubmit(table: TaskTable, row: BillRow, reason: string, finishTime: bigint): Promise<void> {
  await closeTaskBilling(table, row, "failure", reason, { status: "FAILURE", fail_reason: reason.slice(0, 2000), finish_time: finishTime });
}

// The upstream accepted the submit: the row gets its upstream id and first status, unless the
// poller closed it meanwhile (false then).
export async function markSubmitted(table: TaskTable, id: number, columns: Record<string, unknown>): Promise<boolean> {
  const where = { id, billing_state: "reserved", upstream_id: "" };
  const data = Object.assign({}, columns, { next_poll_at: BigInt(nowSeconds() + pollIntervalSec()) }) as never;
  const r = table === "image" ? await db().imageTask.updateMany({ where, data }) : await db().creativeTask.updateMany({ where, data });
  return r.count === 1;
}

// A row still submitting past SUBMIT_LIMIT_SEC (the poller's view): `ageSec` is how long ago it was written.
export const submitStranded = (row: { upstream_id: string }, ageSec: number) => !row.upstream_id && ageSec > SUBMIT_LIMIT_SEC;

// A failed poll: the rows' next poll backs off exponentially (only while they are open).
export async function backoffTasks(table: TaskTable, rows: { id: number; poll_errors: number }[]): Promise<void> {
  for (const r of rows) {
    const where = { id: r.id, billing_state: "reserved" };
    const data = { poll_errors: { increment: 1 }, next_poll_at: BigInt(nowSeconds() + backoffSec(r.poll_errors + 1)) };
    if (table === "image") await db().imageTask.updateMany({ where, data });
    else await db().creativeTask.updateMany({ where, data });
  }
}

// The address the gateway is reached at (option ServerAddress), without a trailing slash.
export const serverAddress = () => getOption("ServerAddress").trim().replace(/\/+$/, "");

// The signature of a task's callback address: a keyed hash of its id, so that only the
// upstream we gave the address to can update that task (docs/tasks.md, "Callbacks").
export const notifySignature = (id: string) => lookupHash(`mj-notify:${id}`).slice(0, 32);

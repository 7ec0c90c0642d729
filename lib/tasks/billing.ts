// Billing of an asynchronous task (docs/tasks.md, "Billing"). The price of the action (the
// ModelPrice of its model name: mj_imagine, suno_music, sora-2...) is reserved at submit with
// the relay's reservation (lib/billing/reserve.ts: conditional debits of token and user or
// plan, a relay_reserve ledger row). An upstream that refuses the submit gets the reservation back at
// once (refundOrLog). An accepted task keeps it open, recorded on the task row
// (billing_state "reserved"), until the task ends:
//   SUCCESS  -> "settled": the cost is counted as used (user, token, channel) and logged;
//   FAILURE  -> "refunded": the amount goes back to user and token with a relay_refund row.
// Either move is one transaction that first changes billing_state from "reserved"
// conditionally, so however many pollers, callbacks and nodes see the same end, the money
// moves once.
import "server-only";
import { logger } from "@/lib/logger";
import type { Tx } from "@/lib/db/client";
import { db } from "@/lib/db/client";
import { changeUserQuota } from "@/lib/billing/ledger";
import { givePotBack } from "@/lib/plans/pot";
import { resolvePrice, quotaFor } from "@/lib/billing/pricing";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { enqueueLog, LOG_TYPE } from "@/lib/logs/writer";
import { getBool } from "@/lib/options/store";
import { AppError, describeError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";
import { logMessage } from "@/lib/logs/messages";

const log = logger("tasks");

export type TaskTable = "image" | "creative";

// What the logs need about the caller, kept with the task (billing_info, JSON). request_id: the
// submit's request id (docs/operations.md, "Request ids"), written on the task's log rows; rows
// of tasks submitted before it was kept use billing_ref, which was the same when generated.
export type BillingInfo = { username: string; token_name: string; group: string; unlimited: boolean; channel_name: string; request_id?: string };

// The quota of one task of this model in this group: its per-call price (ModelPrice, or the
// fallback single price, as the chat relay bills a per-call model: lib/billing/pricing.ts). A
// token ratio has no meaning for a task (it has no tokens): it costs nothing in self-use mode
// and is refused with model_price_not_set otherwise, so that no task ever runs free by accident.
export function taskPrice(model: string, group: string, userSetting: string): bigint {
  const price = resolvePrice({ model, group, userSetting });
  if (price.quotaType === 1) return quotaFor(price, { promptTokens: 0, completionTokens: 0 });
  if (price.source === "self_use") return 0n;
  throw new AppError("RULE", "model_price_not_set", { model });
}

type Row = {
  id: number;
  user_id: number;
  token_id: number;
  channel_id: number;
  quota: bigint;
  model_name: string;
  billing_ref: string;
  billing_info: string;
  subscription_id: number; // the plan's pot the price came from (0: the balance)
};

function infoOf(raw: string): BillingInfo {
  try {
    const v = JSON.parse(raw) as Partial<BillingInfo>;
    return {
      username: v.username ?? "",
      token_name: v.token_name ?? "",
      group: v.group ?? "",
      unlimited: v.unlimited === true,
      channel_name: v.channel_name ?? "",
      request_id: typeof v.request_id === "string" ? v.request_id : undefined,
    };
  } catch {
    // unreadable: the token is not taken for unlimited (its remaining quota gets the refund back)
    return { username: "", token_name: "", group: "", unlimited: false, channel_name: "" };
  }
}

// The final columns of a task (status, fail_reason, finish_time, ...), written together with
// the money in the same conditional update.
export type FinalColumns = Record<string, unknown>;

// Moves billing_state from "reserved" to `to` for this row, writing its final columns in the
// same statement; false when another move got there first (then nothing is written).
async function claim(tx: Tx, table: TaskTable, id: number, to: "settled" | "refunded", final: FinalColumns): Promise<boolean> {
  const where = { id, billing_state: "reserved" };
  const data = Object.assign({}, final, { billing_state: to }) as never;
  const r = table === "image" ? await tx.imageTask.updateMany({ where, data }) : await tx.creativeTask.updateMany({ where, data });
  return r.count === 1;
}

// The task succeeded: the reservation stands as the cost. True when this call settled it.
export async function settleTask(table: TaskTable, row: Row, final: FinalColumns = {}): Promise<boolean> {
  const info = infoOf(row.billing_info);
  const done = await db().$transaction(async (tx) => {
    if (!(await claim(tx, table, row.id, "settled", final))) return false;
    const q = row.quota;
    await tx.user.update({ where: { id: row.user_id }, data: { used_quota: { increment: q }, request_count: { increment: 1 } } });
    if (row.token_id > 0)
      await tx.token.updateMany({ where: { id: row.token_id }, data: { used_quota: { increment: q }, accessed_time: BigInt(nowSeconds()) } });
    if (row.channel_id > 0) await tx.channel.updateMany({ where: { id: row.channel_id }, data: { used_quota: { increment: q } } });
    return true;
  });
  if (done && getBool("LogConsumeEnabled")) {
    enqueueLog({
      user_id: row.user_id,
      type: LOG_TYPE.consume,
      quota: row.quota,
      username: info.username,
      token_name: info.token_name,
      token_id: row.token_id,
      model_name: row.model_name,
      channel_id: row.channel_id,
      channel_name: info.channel_name,
      group: info.group,
      request_id: info.request_id ?? row.billing_ref,
      content: "task",
      other: { task: true, model_price: true },
    });
  }
  return done;
}

// The task failed (upstream failure, or the poller gave up): the reservation goes back to user
// and token, once. True when this call refunded it.
export async function refundTask(table: TaskTable, row: Row, reason: string, final: FinalColumns = {}): Promise<boolean> {
  const info = infoOf(row.billing_info);
  let remain: bigint | null = null;
  const done = await db().$transaction(async (tx) => {
    if (!(await claim(tx, table, row.id, "refunded", final))) return false;
    if (row.quota > 0n) {
      if (row.subscription_id > 0)
        await givePotBack(tx, {
          userId: row.user_id,
          tokenId: row.token_id,
          subscriptionId: row.subscription_id,
          amount: row.quota,
          ref: row.billing_ref,
          now: nowSeconds(),
        });
      else await changeUserQuota(tx, { userId: row.user_id, delta: row.quota, kind: "relay_refund", ref: row.billing_ref, tokenId: row.token_id });
      if (!info.unlimited && row.token_id > 0) {
        await tx.token.updateMany({ where: { id: row.token_id }, data: { remain_quota: { increment: row.quota } } });
        const t = await tx.token.findUnique({ where: { id: row.token_id }, select: { remain_quota: true } });
        remain = t?.remain_quota ?? null;
      }
    }
    return true;
  });
  if (remain !== null) noteTokenQuota(row.token_id, remain);
  if (done && row.quota > 0n) {
    enqueueLog({
      user_id: row.user_id,
      type: LOG_TYPE.system,
      quota: 0n,
      username: info.username,
      token_name: info.token_name,
      token_id: row.token_id,
      model_name: row.model_name,
      channel_id: row.channel_id,
      channel_name: info.channel_name,
      group: info.group,
      request_id: info.request_id ?? row.billing_ref,
      content: `task failed, refunded ${row.quota}: ${reason.slice(0, 200)}`,
      other: JSON.stringify({ message: logMessage("task_refund", { quota: row.quota, reason: reason.slice(0, 200) }) }),
    });
  }
  return done;
}

// settle or refund by the task's end, writing its final columns in the same transaction,
// never throwing (the poller and callbacks go on). False when the task was closed already
// (or the transaction failed: billing_state and status are then unchanged and the next poll
// tries again).
export async function closeTaskBilling(table: TaskTable, row: Row, outcome: "success" | "failure", reason = "", final: FinalColumns = {}): Promise<boolean> {
  try {
    if (outcome === "success") return await settleTask(table, row, final);
    return await refundTask(table, row, reason, final);
  } catch (err) {
    log.error({ table, taskId: row.id, error: describeError(err) }, "task billing failed");
    return false;
  }
}

// A non-final update of an open task (progress, image url...): written only while the task is
// still reserved, so that a late callback or poll never reopens a closed task.
export async function updateOpenTask(table: TaskTable, id: number, columns: FinalColumns): Promise<boolean> {
  const where = { id, billing_state: "reserved" };
  const data = columns as never;
  const r = table === "image" ? await db().imageTask.updateMany({ where, data }) : await db().creativeTask.updateMany({ where, data });
  return r.count === 1;
}

// The task states that end a task.
export const FINAL = new Set(["SUCCESS", "FAILURE"]);

// How long a task row may stay "submitting" (empty status, no upstream id) before the poller
// takes it for a submit that never finished (a crash between the reservation and the upstream's
// answer) and refunds it: longer than the upstream call's own time limit.
export const SUBMIT_LIMIT_SEC = 120;

"use client";
// Reloads everything the wallet shows after money moved (a redemption, a return from a
// payment page): the balance (SELF_PATH), the caller's plans, and every page of the statement and of the top-up
// history in SWR's cache, whatever their paging and filters (docs/redemptions.md).
import { mutate } from "swr";
import { SELF_PATH } from "@/components/me/use-self";

const WALLET_LISTS = ["/api/user/ledger/self", "/api/user/topup/self", "/api/user/plan"];

export const isWalletKey = (key: unknown) => typeof key === "string" && (key === SELF_PATH || WALLET_LISTS.some((p) => key.startsWith(p)));

export async function refreshWallet(): Promise<void> {
  await mutate(isWalletKey);
}

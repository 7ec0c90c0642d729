"use client";
import useSWR from "swr";
import type { User } from "@/lib/client/user";

export const SELF_PATH = "/api/user/self";

// The logged-in user's full record; mutate() reloads it after a change.
export function useSelf() {
  return useSWR<User>(SELF_PATH);
}

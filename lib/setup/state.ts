// Whether first-run setup is done. Once true it stays true, so it is cached for good; while
// false it is read from the database each time (only the setup flow runs then).
import "server-only";
import { db } from "@/lib/db/client";

const holder = globalThis as unknown as { __gatewaySetupDone?: boolean };

export async function isSetupDone(): Promise<boolean> {
  if (holder.__gatewaySetupDone) return true;
  const row = await db().setup.findFirst({ select: { id: true } });
  if (row) holder.__gatewaySetupDone = true;
  return !!row;
}

export async function rootExists(): Promise<boolean> {
  return !!(await db().user.findFirst({ where: { role: { gte: 100 } }, select: { id: true } }));
}

export function markSetupDone(): void {
  holder.__gatewaySetupDone = true;
}

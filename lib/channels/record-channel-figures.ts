// Balance and response-time figures written back by balance queries and channel tests.
// Not a routing change: abilities and the routing cache are left alone.
import "server-only";
import { db } from "@/lib/db/client";
import { nowSeconds } from "@/lib/time";

export async function recordChannelFigures(id: number, data: { balance?: number; response_time?: number }) {
  const now = BigInt(nowSeconds());
  await db().channel.update({
    where: { id },
    data: {
      ...(data.balance !== undefined ? { balance: data.balance, balance_updated_time: now } : {}),
      ...(data.response_time !== undefined ? { response_time: data.response_time, test_time: now } : {}),
    },
  });
}

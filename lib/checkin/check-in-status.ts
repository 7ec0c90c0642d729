// Whether the caller may check in today.
import "server-only";
import { localDay } from "@/lib/checkin/day";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/http/route";
import { getBool } from "@/lib/options/store";

export async function checkInStatus({ ctx }: { ctx: UserCtx }) {
  const today = await db().checkIn.findUnique({ where: { user_id_day: { user_id: ctx.user.id, day: localDay() } }, select: { id: true } });
  const checkedIn = !!today;
  return { can_check_in: getBool("CheckInEnabled") && !checkedIn, checked_in_today: checkedIn };
}

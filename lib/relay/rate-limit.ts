// Request rate limits of the relay, in fixed windows (memory, or Redis with REDIS_URL):
//  - per token, when the token enables it: at most rate_limit_count requests and
//    rate_limit_success successful requests per rate_limit_period seconds (0 = no limit);
//  - per user, when ModelRequestRateLimitEnabled: at most ModelRequestRateLimitCount
//    requests (<= 0: no limit) and ModelRequestRateLimitSuccessCount successful ones per
//    ModelRequestRateLimitDurationMinutes, except for the exempt group when
//    global.rate_limit_exempt_enabled.
// checkRateLimit counts the request (call it once per client request, before the upstream
// call); recordSuccess counts a success (after a successful answer).
import "server-only";
import { AppError } from "@/lib/errors";
import { count, hit, peek } from "@/lib/http/rate-limit";
import { getBool, getNumber, getOption } from "@/lib/options/store";

export type RateLimitSubject = {
  userId: number;
  group: string;
  token: { id: number; rate_limit_enabled: boolean; rate_limit_period: number; rate_limit_count: number; rate_limit_success: number };
};

function modelLimit(group: string) {
  if (!getBool("ModelRequestRateLimitEnabled")) return null;
  if (getBool("global.rate_limit_exempt_enabled") && group === getOption("global.rate_limit_exempt_group")) return null;
  const minutes = Math.max(1, Math.floor(getNumber("ModelRequestRateLimitDurationMinutes", 1)));
  return {
    minutes,
    seconds: minutes * 60,
    total: Math.floor(getNumber("ModelRequestRateLimitCount", -1)),
    success: Math.max(1, Math.floor(getNumber("ModelRequestRateLimitSuccessCount", 1000))),
  };
}

const minutesOf = (seconds: number) => Math.max(1, Math.round(seconds / 60));

export async function checkRateLimit(s: RateLimitSubject): Promise<void> {
  const t = s.token;
  if (t.rate_limit_enabled && t.rate_limit_period > 0) {
    if (t.rate_limit_success > 0 && (await peek(`tok:${t.id}:ok`)) >= t.rate_limit_success) {
      throw new AppError("RATE_LIMITED", "token_rate_limited", { minutes: minutesOf(t.rate_limit_period), count: t.rate_limit_success });
    }
    if (t.rate_limit_count > 0 && !(await hit(`tok:${t.id}:all`, t.rate_limit_count, t.rate_limit_period))) {
      throw new AppError("RATE_LIMITED", "token_rate_limited", { minutes: minutesOf(t.rate_limit_period), count: t.rate_limit_count });
    }
  }
  const m = modelLimit(s.group);
  if (m) {
    if ((await peek(`mrl:${s.userId}:ok`)) >= m.success) {
      throw new AppError("RATE_LIMITED", "model_rate_limited", { minutes: m.minutes, count: m.success });
    }
    if (m.total > 0 && !(await hit(`mrl:${s.userId}:all`, m.total, m.seconds))) {
      throw new AppError("RATE_LIMITED", "model_rate_limited", { minutes: m.minutes, count: m.total });
    }
  }
}

export async function recordSuccess(s: RateLimitSubject): Promise<void> {
  const t = s.token;
  if (t.rate_limit_enabled && t.rate_limit_period > 0 && t.rate_limit_success > 0) await count(`tok:${t.id}:ok`, t.rate_limit_period);
  const m = modelLimit(s.group);
  if (m) await count(`mrl:${s.userId}:ok`, m.seconds);
}

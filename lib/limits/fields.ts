// The usage-limit fields of the token and user APIs (docs/usage-limits.md), shared by the
// server's schemas and the console's forms. Pure: no "server-only", no I/O. A bad value is
// refused naming the field ("Invalid parameter: rpm_limit").
//  - tokens: 0 = no limit, else the limit;
//  - users: 0 = the group's default (GroupLimits), -1 = no limit whatever the group says.
import { z } from "zod";
import { COUNT_LIMIT_MAX, QUOTA_LIMIT_MAX } from "@/lib/options/group-limits";

const field = (min: number, max: number) => z.number().int().min(min).max(max).optional();

const limitFields = (min: number) => ({
  rpm_limit: field(min, COUNT_LIMIT_MAX),
  tpm_limit: field(min, COUNT_LIMIT_MAX),
  concurrency_limit: field(min, COUNT_LIMIT_MAX),
  quota_5h: field(min, QUOTA_LIMIT_MAX),
  quota_day: field(min, QUOTA_LIMIT_MAX),
  quota_week: field(min, QUOTA_LIMIT_MAX),
  quota_month: field(min, QUOTA_LIMIT_MAX),
});

export const tokenLimitFields = limitFields(0);
export const userLimitFields = limitFields(-1);

export type LimitInput = { [K in keyof typeof tokenLimitFields]?: number };

/** The columns of the limit fields given (absent ones are left alone). */
export function limitColumns(f: LimitInput): LimitInput {
  return Object.fromEntries(Object.keys(tokenLimitFields).flatMap((k) => (f[k as keyof LimitInput] === undefined ? [] : [[k, f[k as keyof LimitInput]]])));
}

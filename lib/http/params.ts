// Path parameter schemas for route({ params }). A bad path parameter answers the same
// envelope message as any other bad parameter ("msg:" keys, docs/conventions.md).
import { z } from "zod";

export const idParams = z.object({
  id: z.coerce
    .number({ error: "msg:invalid_parameter" })
    .int("msg:invalid_parameter")
    .positive("msg:invalid_parameter")
    .max(2_147_483_647, "msg:invalid_parameter"),
});

// Upper bounds of numbers read from a query string, so that a value such as 1e20 is refused
// with the parameter named instead of reaching a 32- or 64-bit column (docs/limits.md).
export const MAX_INT32 = 2_147_483_647;
export const MAX_TIMESTAMP = 253_402_300_799; // 9999-12-31T23:59:59Z in unix seconds
export const MAX_PAGE = 1_000_000;

// Paging of every list (`p` from 1, `page_size`): out-of-range or unreadable values fall back
// or are clamped, never refused (docs/api-reference.md).
export const page = z.coerce
  .number()
  .int()
  .optional()
  .catch(1)
  .transform((v) => Math.min(MAX_PAGE, Math.max(1, v ?? 1)));
export const pageSize = (def = 10, max = 100) =>
  z.coerce
    .number()
    .int()
    .optional()
    .catch(def)
    .transform((v) => Math.min(max, Math.max(1, v ?? def)));

// An optional integer query parameter: absent or empty means not given; anything else must be
// an integer in [min, max].
export const queryInt = (max: number, min = 0) => z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

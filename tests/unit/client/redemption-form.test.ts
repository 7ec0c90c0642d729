// The redemption code drawer and the redeem dialog refuse what the server refuses, with the
// server's text in the person's language (docs/redemptions.md): the form's resolver against
// the rule functions the verbs throw (lib/redemptions/field-rules.ts) and route()'s schema.
import { describe, expect, it } from "vitest";
import type { FieldValues } from "react-hook-form";
import type { z } from "zod";
import { ruleResolver } from "@/components/forms/rule-form";
import { blankRedemptionForm, redemptionBody, redemptionFormSchema, type RedemptionForm } from "@/components/redemptions/redemption-form";
import { isGreyed, type Redemption } from "@/components/redemptions/types";
import type { Locale } from "@/lib/i18n/locale";
import { renderMessage, serverCatalogues } from "@/lib/i18n/server-messages";
import {
  createRedemptionBody,
  defaultRedemptionName,
  maxUsesRefusal,
  redeemCodeRefusal,
  redemptionCountRefusal,
  redemptionNameRefusal,
  validRangeRefusal,
} from "@/lib/redemptions/field-rules";

async function formMessages(schema: z.ZodType, values: FieldValues, locale: Locale): Promise<string[]> {
  const r = await ruleResolver(schema, serverCatalogues[locale])(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  return Object.values(r.errors).map((e) => String(e?.message));
}

const redemption = (over: Partial<Redemption> = {}): Redemption => ({
  id: 7,
  name: "batch",
  key_hint: "abcd…wxyz",
  status: 1,
  quota: 100000,
  is_gift: false,
  max_uses: 1,
  used_count: 0,
  valid_from: 0,
  valid_until: 0,
  created_time: 1,
  redeemed_time: 0,
  used_user_id: 0,
  ...over,
});

describe("the code drawer gives the server's messages", () => {
  for (const locale of ["zh", "en"] as Locale[]) {
    it(`name, count, quota, window, max uses, custom code (${locale})`, async () => {
      const m = (k: Parameters<typeof renderMessage>[1], p?: Record<string, number>) => renderMessage(locale, k, p);
      const create = (over: Partial<RedemptionForm>) =>
        formMessages(redemptionFormSchema(serverCatalogues[locale], null), { ...blankRedemptionForm(), ...over }, locale);
      expect(await create({ name: "x".repeat(21) })).toEqual([m(redemptionNameRefusal("x".repeat(21))!)]);
      expect(await create({ count: "0" })).toEqual([m(redemptionCountRefusal(0)!)]);
      expect(await create({ count: "101" })).toEqual([m("redemption_count_invalid")]);
      expect(await create({ quota: "0" })).toEqual([m("redemption_quota_invalid")]);
      expect(await create({ quota: "1.5" })).toEqual([m("redemption_quota_invalid")]);
      expect(await create({ valid_from: 200, valid_until: 100 })).toEqual([m(validRangeRefusal(200, 100)!)]);
      expect(await create({ is_gift: true, max_uses: "0" })).toEqual([m(maxUsesRefusal(0)!)]);
      expect(await create({ key: "short" })).toEqual([m("redemption_key_invalid")]);
      expect(await create({ key: "long-enough-code", count: "2" })).toEqual([m("redemption_key_single")]);
      // an empty name is fine on create (it becomes the formatted quota), not on edit
      expect(await create({ name: "" })).toEqual([]);
      const edit = (over: Partial<RedemptionForm>, c = redemption()) =>
        formMessages(redemptionFormSchema(serverCatalogues[locale], c), { ...blankRedemptionForm(), name: "a", ...over }, locale);
      expect(await edit({ name: "  " })).toEqual([m("redemption_name_length")]);
      expect(await edit({ is_gift: true, max_uses: "1" }, redemption({ is_gift: true, max_uses: 5, used_count: 2 }))).toEqual([
        m("redemption_max_uses_below_used", { used: 2 }),
      ]);
    });
  }

  it("the body passes the route's schema, and the spec's Chinese texts", async () => {
    const body = redemptionBody({ ...blankRedemptionForm(), name: "promo", count: "3", is_gift: true, max_uses: "-1" }, null);
    expect(createRedemptionBody.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ name: "promo", quota: 100000, count: 3, is_gift: true, max_uses: -1, valid_from: 0, valid_until: 0 });
    expect(body).not.toHaveProperty("key");
    expect(renderMessage("zh", validRangeRefusal(5, 5)!)).toBe("生效时间必须早于过期时间");
    expect(renderMessage("zh", redeemCodeRefusal(" ")!)).toBe("请输入兑换码");
    expect(redeemCodeRefusal("abc")).toBeNull();
  });

  it("names an unnamed code by its quota as the console shows it", () => {
    expect(defaultRedemptionName(100000, { displayInCurrency: true, quotaPerUnit: 500000 })).toBe("$0.20");
    expect(defaultRedemptionName(100000, { displayInCurrency: false, quotaPerUnit: 500000 })).toBe("100.0k");
  });

  it("greys disabled codes and spent gift codes only", () => {
    expect(isGreyed(redemption())).toBe(false);
    expect(isGreyed(redemption({ status: 2 }))).toBe(true);
    expect(isGreyed(redemption({ status: 3 }))).toBe(false);
    expect(isGreyed(redemption({ is_gift: true, max_uses: 3, used_count: 3 }))).toBe(true);
    expect(isGreyed(redemption({ is_gift: true, max_uses: -1, used_count: 300 }))).toBe(false);
  });
});

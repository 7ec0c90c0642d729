// The code drawer's form: its values (strings as typed), the schema that checks them with the
// server's rules (lib/redemptions/field-rules.ts) and messages, and the request body.
import { z } from "zod";
import { say, type MessageKey, type ServerCatalogue } from "@/lib/i18n/render";
import {
  customKeyRefusal,
  DEFAULT_REDEMPTION_QUOTA,
  maxUsesRefusal,
  redemptionCountRefusal,
  redemptionNameRefusal,
  redemptionQuotaRefusal,
  validRangeRefusal,
} from "@/lib/redemptions/field-rules";
import type { Redemption } from "./types";

export type RedemptionForm = {
  name: string;
  quota: string;
  count: string;
  key: string;
  is_gift: boolean;
  max_uses: string;
  valid_from: number | null;
  valid_until: number | null;
};

export const blankRedemptionForm = (): RedemptionForm => ({
  name: "",
  quota: String(DEFAULT_REDEMPTION_QUOTA),
  count: "1",
  key: "",
  is_gift: false,
  max_uses: "-1",
  valid_from: null,
  valid_until: null,
});

export function redemptionToForm(c: Redemption): RedemptionForm {
  return {
    name: c.name,
    quota: String(c.quota),
    count: "1",
    key: "",
    is_gift: c.is_gift,
    max_uses: String(c.max_uses),
    valid_from: c.valid_from || null,
    valid_until: c.valid_until || null,
  };
}

/** The drawer's schema; `editing` is the code being edited (null when creating). */
export function redemptionFormSchema(catalogue: ServerCatalogue, editing: Redemption | null) {
  const msg = (key: MessageKey, params?: Record<string, string | number>) => say(catalogue, key, params);
  return z.custom<RedemptionForm>().superRefine((f, ctx) => {
    const refuse = (path: keyof RedemptionForm, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    // On create an empty name becomes the formatted quota (the server does the same).
    if (editing || f.name.trim()) {
      const name = redemptionNameRefusal(f.name);
      if (name) refuse("name", msg(name));
    }
    const quota = redemptionQuotaRefusal(f.quota);
    if (quota) refuse("quota", msg(quota));
    if (!editing) {
      const count = redemptionCountRefusal(Number(f.count));
      if (count) refuse("count", msg(count));
      if (f.key.trim()) {
        const key = customKeyRefusal(f.key.trim(), Number(f.count));
        if (key) refuse("key", msg(key));
      }
    }
    const range = validRangeRefusal(f.valid_from ?? 0, f.valid_until ?? 0);
    if (range) refuse("valid_until", msg(range));
    if (f.is_gift) {
      const used = editing?.used_count ?? 0;
      const uses = maxUsesRefusal(Number(f.max_uses.trim() || "x"), used);
      if (uses) refuse("max_uses", msg(uses, { used }));
    }
  });
}

/** The POST/PUT body of valid form values. */
export function redemptionBody(f: RedemptionForm, editing: Redemption | null) {
  const body: Record<string, unknown> = {
    name: f.name.trim(),
    quota: Number(f.quota),
    valid_from: f.valid_from ?? 0,
    valid_until: f.valid_until ?? 0,
  };
  if (f.is_gift) body.max_uses = Number(f.max_uses);
  if (editing) return { ...body, id: editing.id };
  return { ...body, is_gift: f.is_gift, count: Number(f.count), ...(f.key.trim() ? { key: f.key.trim() } : {}) };
}

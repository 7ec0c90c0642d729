// The console's forms refuse what the server refuses, with the server's text in the
// person's language (docs/console-ui.md, "Forms"): each case runs the form's resolver and
// the server's own check (route()'s zod refusal, or the verb's AppError) on the same input.
import { describe, expect, it } from "vitest";
import type { FieldValues } from "react-hook-form";
import type { z } from "zod";
import { ruleResolver } from "@/components/forms/rule-form";
import { blankChannelForm, channelBody, channelFormSchema, type ChannelForm } from "@/components/channels/channel-form";
import { createRefusals } from "@/lib/channels/field-rules";
import { columns, createBody as createChannelBody, updateBody as updateChannelBody } from "@/lib/channels/schemas";
import { blankTokenForm, tokenBody, tokenFormSchema, type TokenForm } from "@/components/tokens/token-form";
import { userEditorSchema } from "@/components/users/user-form";
import { AppError, isAppError } from "@/lib/errors";
import { renderMessage, serverCatalogues, type MessageKey } from "@/lib/i18n/server-messages";
import type { Locale } from "@/lib/i18n/locale";
import { setupRoot } from "@/lib/setup/field-rules";
import { checkTokenFields } from "@/lib/tokens/fields";
import { createTokenBody, updateTokenBody } from "@/lib/tokens/schemas";
import { createUserBody, loginBody, passwordChange, registerBody, updateUserBody } from "@/lib/users/schemas";

const LOCALES: Locale[] = ["zh", "en"];

/** The form's messages for values, in field order. */
async function formMessages(schema: z.ZodType, values: FieldValues, locale: Locale): Promise<string[]> {
  const r = await ruleResolver(schema, serverCatalogues[locale])(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  return Object.values(r.errors).map((e) => String(e?.message));
}

/** What route() answers when its body schema refuses (lib/http/route.ts). */
function routeRefusal(schema: z.ZodType, body: unknown, locale: Locale): string | null {
  const r = schema.safeParse(body);
  if (r.success) return null;
  const m = r.error.issues[0]?.message ?? "";
  return m.startsWith("msg:")
    ? renderMessage(locale, m.slice(4) as MessageKey)
    : renderMessage(locale, "invalid_parameter_detail", { detail: r.error.issues[0]?.path.join(".") ?? "" });
}

function verbRefusal(run: () => void, locale: Locale): string | null {
  try {
    run();
    return null;
  } catch (e) {
    if (isAppError(e)) return renderMessage(locale, e.key, e.params);
    throw e;
  }
}

describe("account forms give the server's messages", () => {
  const cases: [string, z.ZodType, FieldValues][] = [
    ["login, empty", loginBody, { username: " ", password: "" }],
    ["register, short password", registerBody, { username: "bob", password: "1234567", password2: "1234567", email: "" }],
    ["register, long username", registerBody, { username: "x".repeat(13), password: "12345678", password2: "12345678", email: "" }],
    ["register, passwords differ", registerBody, { username: "bob", password: "12345678", password2: "12345679", email: "" }],
    ["register, bad email", registerBody, { username: "bob", password: "12345678", password2: "12345678", email: "not-an-email" }],
    ["add user, empty", createUserBody, { username: "", display_name: "", password: "" }],
    ["add user, short password", createUserBody, { username: "bob", display_name: "", password: "abc" }],
    ["setup, no username", setupRoot, { username: " ", password: "12345678", confirmPassword: "12345678" }],
    ["setup, short password", setupRoot, { username: "root", password: "short", confirmPassword: "short" }],
    ["setup, mismatch", setupRoot, { username: "root", password: "12345678", confirmPassword: "87654321" }],
    ["password change, differ", passwordChange, { original_password: "old", password: "abcdefgh", password2: "abcdefgx" }],
  ];
  for (const locale of LOCALES) {
    it(`login, register, add user, setup, password change (${locale})`, async () => {
      for (const [what, schema, values] of cases) {
        const server = routeRefusal(schema, values, locale);
        expect(server, what).not.toBeNull();
        expect((await formMessages(schema, values, locale))[0], what).toBe(server);
      }
    });
  }
  it("passes valid input", async () => {
    expect(await formMessages(registerBody, { username: "bob", password: "12345678", password2: "12345678", email: "" }, "zh")).toEqual([]);
    expect(await formMessages(setupRoot, { username: "root", password: "12345678", confirmPassword: "12345678" }, "zh")).toEqual([]);
  });
  it("shows the spec's Chinese texts", async () => {
    expect(await formMessages(setupRoot, { username: "", password: "12345678", confirmPassword: "12345678" }, "zh")).toEqual(["请输入管理员用户名"]);
    expect(await formMessages(loginBody, { username: "", password: "" }, "zh")).toContain("请输入用户名和密码");
  });
});

describe("the user editor gives the server's messages", () => {
  const user = { username: "bob", display_name: "Bob", password: "", original_password: "", group: "default", quota: "100", remark: "" };
  const cases: [string, Partial<typeof user>, Record<string, unknown>][] = [
    ["short password", { password: "abc" }, { password: "abc" }],
    ["long display name", { display_name: "x".repeat(21) }, { display_name: "x".repeat(21) }],
    ["bad quota", { quota: "1.5" }, { quota: "1.5" }],
    ["long username", { username: "x".repeat(13) }, { username: "x".repeat(13) }],
  ];
  for (const locale of LOCALES) {
    it(`refuses as PUT /api/user/ does (${locale})`, async () => {
      for (const [what, change, body] of cases) {
        // a password is checked by the verb with the same rule (lib/users/update-user.ts)
        const server = what === "short password" ? renderMessage(locale, "password_too_short") : routeRefusal(updateUserBody, { id: 1, ...body }, locale);
        expect(server, what).not.toBeNull();
        expect(await formMessages(userEditorSchema(true), { ...user, ...change }, locale), what).toEqual([server]);
      }
    });
  }
  it(`limits: -1 and blank pass, others are refused as the route refuses them`, async () => {
    for (const locale of LOCALES) {
      for (const [field, typed, sent] of [
        ["rpm_limit", "-2", -2],
        ["quota_day", "1.5", 1.5],
      ] as const) {
        const server = routeRefusal(updateUserBody, { id: 1, [field]: sent }, locale);
        expect(server, field).not.toBeNull();
        expect(await formMessages(userEditorSchema(true), { ...user, [field]: typed }, locale), field).toEqual([server]);
      }
    }
    expect(await formMessages(userEditorSchema(true), { ...user, rpm_limit: "-1", tpm_limit: "", quota_day: "25" }, "en")).toEqual([]);
  });
  it("keeps the password when it is left blank", async () => {
    expect(await formMessages(userEditorSchema(true), user, "en")).toEqual([]);
    expect(await formMessages(userEditorSchema(false), { ...user, quota: "not checked for oneself" }, "en")).toEqual([]);
  });
});

describe("the token drawer gives the server's messages", () => {
  const NOW = 1_900_000_000;
  const actor = { id: 1, group: "default" };
  const form = (change: Partial<TokenForm>): TokenForm => ({ ...blankTokenForm(), name: "app", ...change });
  /** The server's answer for the body the drawer would send: the route's schema, then the verb's checks. */
  function server(f: TokenForm, locale: Locale): string | null {
    const body = tokenBody(f, null);
    const zod = routeRefusal(createTokenBody, body, locale);
    if (zod) return zod;
    const input = createTokenBody.parse(body);
    return verbRefusal(() => checkTokenFields(actor, input, NOW), locale);
  }
  const cases: [string, Partial<TokenForm>, MessageKey | null][] = [
    ["empty name", { name: "  " }, "token_name_required"],
    ["long name", { name: "n".repeat(51) }, "token_name_too_long"],
    ["negative quota", { remain_quota: "-1" }, "token_quota_negative"],
    ["batch of 101", { count: "101" }, "token_batch_count_invalid"],
    ["expiry in the past", { expiry: "2020-01-01 00:00:00" }, "token_expiry_past"],
  ];
  for (const locale of LOCALES) {
    it(`names, quotas, counts and expiries (${locale})`, async () => {
      const schema = tokenFormSchema(serverCatalogues[locale], null, () => NOW);
      for (const [what, change, key] of cases) {
        const expected = renderMessage(locale, key!);
        expect(await formMessages(schema, form(change), locale), what).toEqual([expected]);
        // the verbs refuse with the same key (the empty name and the count are checked by createTokens)
        if (what === "long name" || what === "negative quota" || what === "expiry in the past") expect(server(form(change), locale), what).toBe(expected);
      }
    });
    it(`rate-limit bounds read as the route's refusal (${locale})`, async () => {
      const f = form({ rate_limit_enabled: true, rate_limit_period: "0" });
      expect(
        await formMessages(
          tokenFormSchema(serverCatalogues[locale], null, () => NOW),
          f,
          locale,
        ),
      ).toEqual([routeRefusal(createTokenBody, tokenBody(f, null), locale)]);
    });
  }
  it("limits: a bad count or amount is refused as the route refuses it; dollars are sent as units", async () => {
    for (const locale of LOCALES) {
      const schema = tokenFormSchema(serverCatalogues[locale], null, () => NOW, { displayInCurrency: true, quotaPerUnit: 500000 });
      expect(await formMessages(schema, form({ rpm_limit: "1.5" }), locale)).toEqual([routeRefusal(createTokenBody, { name: "app", rpm_limit: 1.5 }, locale)]);
      expect(await formMessages(schema, form({ tpm_limit: "-1" }), locale)).toEqual([routeRefusal(createTokenBody, { name: "app", tpm_limit: -1 }, locale)]);
    }
    const body = tokenBody(form({ rpm_limit: "50", quota_day: "0.1", quota_month: "" }), null, { displayInCurrency: true, quotaPerUnit: 500000 });
    expect(body).toMatchObject({ rpm_limit: 50, quota_day: 50000, quota_month: 0 });
    expect(routeRefusal(createTokenBody, body, "en")).toBeNull();
  });
  it("an unchanged past expiry is not checked on edit, and is not sent", async () => {
    const stored = NOW - 120;
    const token = { id: 7, expired_time: stored } as Parameters<typeof tokenBody>[1];
    const d = new Date(stored * 1000);
    const pad = (n: number) => String(n).padStart(2, "0");
    const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    expect(
      await formMessages(
        tokenFormSchema(serverCatalogues.en, stored, () => NOW),
        form({ expiry: text }),
        "en",
      ),
    ).toEqual([]);
    expect(tokenBody(form({ expiry: text }), token)).not.toHaveProperty("expired_time");
    expect(
      await formMessages(
        tokenFormSchema(serverCatalogues.en, stored, () => NOW),
        form({ expiry: "2021-01-01" }),
        "en",
      ),
    ).toEqual(["The expiry time must be in the future"]);
    expect(routeRefusal(updateTokenBody, { id: 7, expired_time: "x" }, "en")).toBe("The expiry time format is wrong");
  });
  it("a bad expiry text is refused with the server's format message", async () => {
    expect(
      await formMessages(
        tokenFormSchema(serverCatalogues.en, null, () => NOW),
        form({ expiry: "2030-13-45 99:00" }),
        "en",
      ),
    ).toEqual(["The expiry time format is wrong"]);
  });
});

describe("the channel editor gives the server's messages", () => {
  const form = (change: Partial<ChannelForm>): ChannelForm => ({ ...blankChannelForm(), name: "c", key: "sk-1", models: ["gpt-4o"], ...change });
  /** The server's answer for the body the editor would send: the route's schema, then the verb's checks. */
  function server(f: ChannelForm, id: number | null, locale: Locale): string | null {
    const body = channelBody(f, id);
    const zod = routeRefusal(id === null ? createChannelBody : updateChannelBody, body, locale);
    if (zod) return zod;
    const input = (id === null ? createChannelBody : updateChannelBody).parse(body);
    return verbRefusal(() => {
      const data = columns(input, { clampWeight: id !== null });
      if (id === null) {
        // as createChannels checks what columns() left
        const [missing] = createRefusals({ name: String(data.name ?? ""), models: String(data.models ?? ""), key: (input.key ?? "").trim() });
        if (missing) throw new AppError("INVALID_INPUT", missing[1]);
      } else if (data.name !== undefined && !String(data.name)) throw new AppError("INVALID_INPUT", "channel_name_required");
    }, locale);
  }
  const created: [string, Partial<ChannelForm>, MessageKey | "name"][] = [
    ["empty name", { name: "  " }, "channel_name_required"],
    ["no models", { models: [] }, "channel_models_required"],
    ["no key", { key: " " }, "channel_key_required"],
    ["fractional priority", { priority: "1.5" }, "priority_must_be_integer"],
    ["empty priority", { priority: "" }, "priority_must_be_integer"],
    ["negative weight", { weight: "-1" }, "weight_must_be_non_negative"],
    ["bad model mapping", { model_mapping: "{not json" }, "channel_model_mapping_invalid"],
    ["array model mapping", { model_mapping: "[]" }, "channel_model_mapping_invalid"],
    ["bad status code mapping", { status_code_mapping: '{"400": ' }, "channel_status_code_mapping_invalid"],
    ["long name", { name: "n".repeat(201) }, "name"],
  ];
  for (const locale of LOCALES) {
    it(`a new channel (${locale})`, async () => {
      for (const [what, change, key] of created) {
        const expected = key === "name" ? renderMessage(locale, "invalid_parameter_detail", { detail: "name" }) : renderMessage(locale, key);
        expect(await formMessages(channelFormSchema(serverCatalogues[locale], null), form(change), locale), what).toEqual([expected]);
        expect(server(form(change), null, locale), what).toBe(expected);
      }
    });
    it(`an edited channel (${locale})`, async () => {
      const edit = (change: Partial<ChannelForm>) => form({ key: "", ...change });
      for (const [what, change, key] of [
        ["empty name", { name: " " }, "channel_name_required"],
        ["bad status code mapping", { status_code_mapping: "x" }, "channel_status_code_mapping_invalid"],
        ["huge weight", { weight: "3000000000" }, "weight_must_be_non_negative"],
      ] as [string, Partial<ChannelForm>, MessageKey][]) {
        const expected = renderMessage(locale, key);
        expect(await formMessages(channelFormSchema(serverCatalogues[locale], 7), edit(change), locale), what).toEqual([expected]);
        expect(server(edit(change), 7, locale), what).toBe(expected);
      }
    });
  }
  it("passes what the server takes: a blank key and a negative weight on edit, no models on edit", async () => {
    const edit = form({ key: "", weight: "-3", models: [] });
    expect(await formMessages(channelFormSchema(serverCatalogues.en, 7), edit, "en")).toEqual([]);
    expect(server(edit, 7, "en")).toBeNull();
    expect(await formMessages(channelFormSchema(serverCatalogues.zh, null), form({ model_mapping: '{"a": "b"}', status_code_mapping: "" }), "zh")).toEqual([]);
  });
  it("says which JSON field is wrong, in both languages", () => {
    expect(renderMessage("zh", "channel_status_code_mapping_invalid")).toBe("状态码复写不是合法的 JSON 对象");
    expect(renderMessage("en", "channel_status_code_mapping_invalid")).toBe("The status code mapping is not a valid JSON object");
  });
});

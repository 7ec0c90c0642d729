import { describe, expect, it } from "vitest";
import { publicSetting } from "@/lib/users/present";
import { mergeSetting } from "@/lib/users/update-setting";
import { createUserBody, quotaAmount, registerBody, settingBody } from "@/lib/users/schemas";
import { searchWhere } from "@/lib/users/list-users";

describe("publicSetting", () => {
  it("strips the webhook secret and says whether one is set", () => {
    expect(JSON.parse(publicSetting(JSON.stringify({ webhook_secret: "x", notify_type: "webhook" })))).toEqual({
      notify_type: "webhook",
      webhook_secret_set: true,
    });
    expect(JSON.parse(publicSetting(JSON.stringify({ notify_type: "email" })))).toEqual({ notify_type: "email", webhook_secret_set: false });
    expect(publicSetting("")).toBe("");
    expect(publicSetting("not json")).toBe("");
    expect(publicSetting("[1]")).toBe("");
  });
});

describe("mergeSetting", () => {
  it("keeps the stored secret when the new one is blank", () => {
    const r = mergeSetting({ webhook_secret: "old", webhook_url: "https://a" }, { webhook_secret: "", notify_type: "webhook" });
    expect(r).toEqual({ webhook_secret: "old", webhook_url: "https://a", notify_type: "webhook" });
  });
  it("requires https for webhooks", () => {
    expect(mergeSetting({}, { notify_type: "webhook", webhook_url: "http://a" })).toEqual({ refuse: "webhook_https_only" });
    expect(mergeSetting({}, { notify_type: "webhook" })).toEqual({ refuse: "webhook_https_only" });
    expect(mergeSetting({}, { notify_type: "email", webhook_url: "ftp://x" })).toEqual({ refuse: "webhook_https_only" });
    expect(mergeSetting({}, { notify_type: "email", webhook_url: "" })).toEqual({ notify_type: "email", webhook_url: "" });
  });
});

describe("schemas", () => {
  it("parses quota amounts exactly", () => {
    expect(quotaAmount.parse(500000)).toBe(500000);
    expect(quotaAmount.parse("42")).toBe(42);
    expect(quotaAmount.safeParse(-1).success).toBe(false);
    expect(quotaAmount.safeParse(1.5).success).toBe(false);
    expect(quotaAmount.safeParse("1e3").success).toBe(false);
    expect(quotaAmount.safeParse(2 ** 60).success).toBe(false);
  });
  it("limits register fields", () => {
    expect(registerBody.safeParse({ username: "a", password: "12345678" }).success).toBe(true);
    expect(registerBody.safeParse({ username: "a", password: "12345678", password2: "x" }).error?.issues[0].message).toBe("msg:passwords_differ");
    expect(registerBody.safeParse({ username: "abcdefghijklm", password: "12345678" }).error?.issues[0].message).toBe("msg:username_too_long");
    expect(registerBody.safeParse({ username: "a", password: "123456789012345678901" }).error?.issues[0].message).toBe("msg:password_too_long");
  });
  it("reports empty create fields with one message", () => {
    expect(createUserBody.safeParse({ username: " ", password: "12345678" }).error?.issues[0].message).toBe("msg:username_password_empty");
    expect(createUserBody.safeParse({ username: "a", password: "" }).error?.issues[0].message).toBe("msg:username_password_empty");
  });
  it("validates the threshold", () => {
    expect(settingBody.safeParse({ quota_warning_threshold: 0 }).error?.issues[0].message).toBe("msg:threshold_invalid");
    expect(settingBody.safeParse({ quota_warning_threshold: 1 }).success).toBe(true);
  });
});

describe("searchWhere", () => {
  it("matches an exact id only for numeric keywords", () => {
    expect(JSON.stringify(searchWhere("12", ""))).toContain('{"id":12}');
    expect(JSON.stringify(searchWhere("ab", ""))).not.toContain('"id"');
    expect(searchWhere("", "")).toEqual({});
    expect(searchWhere("", "vip")).toEqual({ AND: [{ group: "vip" }] });
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLD, parseSettings, settingsChanged, settingsPayload } from "@/lib/client/settings";

describe("user settings", () => {
  it("parses the stored JSON with the form's defaults", () => {
    expect(parseSettings("")).toEqual({
      notify_type: "email",
      quota_warning_threshold: DEFAULT_THRESHOLD,
      webhook_url: "",
      webhook_secret: "",
      notification_email: "",
      accept_unset_model_ratio_model: false,
      show_ip_in_logs: false,
    });
    expect(DEFAULT_THRESHOLD).toBe(100000);
    const s = parseSettings(
      JSON.stringify({ notify_type: "webhook", quota_warning_threshold: 500000, webhook_url: "https://h", webhook_secret: "leak", show_ip_in_logs: true }),
    );
    expect(s.notify_type).toBe("webhook");
    expect(s.quota_warning_threshold).toBe(500000);
    expect(s.webhook_secret).toBe("");
    expect(s.show_ip_in_logs).toBe(true);
    expect(parseSettings("{not json").notify_type).toBe("email");
  });
  it("tells whether anything changed", () => {
    const a = parseSettings("{}");
    expect(settingsChanged(a, { ...a })).toBe(false);
    expect(settingsChanged(a, { ...a, show_ip_in_logs: true })).toBe(true);
    expect(settingsChanged(a, { ...a, webhook_secret: "s" })).toBe(true);
  });
  it("does not resend an empty secret", () => {
    const a = parseSettings("{}");
    expect("webhook_secret" in settingsPayload(a)).toBe(false);
    expect(settingsPayload({ ...a, webhook_secret: "s3" }).webhook_secret).toBe("s3");
  });
});

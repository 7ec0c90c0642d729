// Mail bodies (docs/mail.md, "Bodies"): the request's language, the site's name and address,
// and every interpolated value escaped in the HTML part (never in the plain text).
import { describe, expect, it } from "vitest";
import { escapeHtml, renderMail } from "@/lib/mail/templates";
import { applyOption } from "@/lib/options/store";

describe("mail templates", () => {
  it("escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("writes the code mail in zh and en with the site's name and address, escaped in HTML only", () => {
    applyOption("SystemName", `My "Gate" <b>`);
    applyOption("ServerAddress", "https://gw.example.com/");
    const zh = renderMail("zh", "a@b.co", { kind: "verification", code: "123456", minutes: 10 });
    expect(zh.to).toBe("a@b.co");
    expect(zh.subject).toBe(`My "Gate" <b> 邮箱验证码`);
    expect(zh.text).toContain("123456");
    expect(zh.text).toContain("10 分钟");
    expect(zh.text).toContain(`My "Gate" <b> · https://gw.example.com`);
    expect(zh.html).toContain("My &quot;Gate&quot; &lt;b&gt;");
    expect(zh.html).not.toContain("<b>");
    expect(zh.html).toContain('lang="zh-CN"');
    const en = renderMail("en", "a@b.co", { kind: "verification", code: "123456", minutes: 10 });
    expect(en.subject).toBe(`My "Gate" <b> email verification code`);
    expect(en.text).toContain("valid for 10 minutes");
  });

  it("puts the reset link in both parts, escaped in the HTML attribute", () => {
    applyOption("SystemName", "Gate");
    applyOption("ServerAddress", "");
    const link = "https://gw.example.com/user/reset?email=a%40b.co&token=T0k3n";
    const mail = renderMail("en", "a@b.co", { kind: "reset", link, minutes: 30 });
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="https://gw.example.com/user/reset?email=a%40b.co&amp;token=T0k3n"`);
    expect(mail.text.trim().endsWith("Gate")).toBe(true); // no address: the footer is the name
  });
});

import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import { renderMessage } from "@/lib/i18n/server-messages";

function leaves(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("messages", () => {
  it("zh and en have the same keys (the other languages: tests/unit/i18n/catalogues.test.ts)", () => {
    expect(leaves(en).sort()).toEqual(leaves(zh).sort());
  });
  it('carry the setup messages (the setup form shows the server\'s, docs/console-ui.md "Forms")', () => {
    expect(renderMessage("zh", "setup_username_required")).toBe("请输入管理员用户名");
    expect(renderMessage("zh", "setup_password_short")).toBe("密码长度至少为8个字符");
    expect(renderMessage("zh", "setup_password_mismatch")).toBe("两次输入的密码不一致");
    expect(en.errors.prefixed).toBe("Error: {message}");
  });
});

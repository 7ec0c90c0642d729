import { describe, expect, it } from "vitest";
import {
  checkAddUser,
  checkDeleteConfirm,
  checkEmailIfGiven,
  checkLogin,
  checkPasswordChange,
  checkRegister,
  checkSetup,
  checkTransfer,
  checkWebhookUrl,
} from "@/lib/client/validation";

describe("client checks of the input limits", () => {
  it("login needs both fields", () => {
    expect(checkLogin("", "x")).toBe("loginRequired");
    expect(checkLogin("  ", "x")).toBe("loginRequired");
    expect(checkLogin("root", "")).toBe("loginRequired");
    expect(checkLogin("root", "secret")).toBeNull();
  });
  it("register: required, at least 8, confirmation equal; no upper bound on the client", () => {
    expect(checkRegister({ username: "", password: "12345678", password2: "12345678" })).toBe("usernamePasswordEmpty");
    expect(checkRegister({ username: "bob", password: "1234567", password2: "1234567" })).toBe("passwordTooShort");
    expect(checkRegister({ username: "bob", password: "12345678", password2: "12345679" })).toBe("passwordsDiffer");
    expect(checkRegister({ username: "bob", password: "x".repeat(30), password2: "x".repeat(30) })).toBeNull();
  });
  it("setup: username, 8 characters, confirmation", () => {
    expect(checkSetup({ username: " ", password: "12345678", confirmPassword: "12345678" })).toBe("setupUsernameRequired");
    expect(checkSetup({ username: "root", password: "short", confirmPassword: "short" })).toBe("setupPasswordShort");
    expect(checkSetup({ username: "root", password: "12345678", confirmPassword: "87654321" })).toBe("setupPasswordMismatch");
    expect(checkSetup({ username: "root", password: "12345678", confirmPassword: "12345678" })).toBeNull();
  });
  it("add user needs username and password", () => {
    expect(checkAddUser({ username: "", password: "x" })).toBe("usernamePasswordEmpty");
    expect(checkAddUser({ username: "a", password: "" })).toBe("usernamePasswordEmpty");
    expect(checkAddUser({ username: "a", password: "b" })).toBeNull();
  });
  it("password change needs a matching confirmation", () => {
    expect(checkPasswordChange({ password: "abcdefgh", password2: "abcdefgx" })).toBe("passwordsDiffer");
    expect(checkPasswordChange({ password: "abc", password2: "abc" })).toBe("passwordTooShort");
    expect(checkPasswordChange({ password: "abcdefgh", password2: "abcdefgh" })).toBeNull();
  });
  it("account deletion needs the exact username", () => {
    expect(checkDeleteConfirm("Alice", "alice")).toBe("deleteConfirmMismatch");
    expect(checkDeleteConfirm("alice ", "alice")).toBe("deleteConfirmMismatch");
    expect(checkDeleteConfirm("alice", "alice")).toBeNull();
  });
  it("transfer needs at least one quota unit", () => {
    expect(checkTransfer(499999, 500000)).toBe("transferMin");
    expect(checkTransfer(Number.NaN, 500000)).toBe("transferMin");
    expect(checkTransfer(500000, 500000)).toBeNull();
  });
  it("webhook addresses are https only; emails are checked when given", () => {
    expect(checkWebhookUrl("")).toBe("webhookUrlRequired");
    expect(checkWebhookUrl("http://hook.example")).toBe("webhookHttps");
    expect(checkWebhookUrl("https://hook.example/x")).toBeNull();
    expect(checkEmailIfGiven("")).toBeNull();
    expect(checkEmailIfGiven("not-an-email")).toBe("emailInvalid");
    expect(checkEmailIfGiven("a@b.co")).toBeNull();
  });
});

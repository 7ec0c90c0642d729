// The epay signature (lib/payments/epay.ts) against a vector computed by hand from the
// protocol, and the rebate arithmetic (lib/payments/rebate.ts).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { epaySignature, signEpayForm, verifyEpaySignature } from "@/lib/payments/epay";
import { rebateOf } from "@/lib/payments/rebate";

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

describe("epay signature", () => {
  const params = { pid: "1001", type: "alipay", out_trade_no: "USR1NOX", notify_url: "https://a.example/n", return_url: "", name: "TUC10", money: "73.00" };
  it("signs the sorted non-empty parameters with the key appended", () => {
    const text = "money=73.00&name=TUC10&notify_url=https://a.example/n&out_trade_no=USR1NOX&pid=1001&type=alipay";
    expect(epaySignature(params, "KEY")).toBe(md5(text + "KEY"));
    expect(epaySignature({ ...params, sign: "x", sign_type: "MD5" }, "KEY")).toBe(md5(text + "KEY"));
    expect(signEpayForm(params, "KEY")).toMatchObject({ sign: md5(text + "KEY"), sign_type: "MD5" });
  });
  it("verifies only a matching signature under a non-empty key", () => {
    const signed = signEpayForm(params, "KEY");
    expect(verifyEpaySignature(signed, "KEY")).toBe(true);
    expect(verifyEpaySignature({ ...signed, sign: signed.sign.toUpperCase() }, "KEY")).toBe(true);
    expect(verifyEpaySignature(signed, "OTHER")).toBe(false);
    expect(verifyEpaySignature(signed, "")).toBe(false);
    expect(verifyEpaySignature(signEpayForm(params, ""), "")).toBe(false);
    expect(verifyEpaySignature({ ...signed, money: "0.01" }, "KEY")).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign: "" }, "KEY")).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign: "zz" }, "KEY")).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign_type: "RSA" }, "KEY")).toBe(false);
    const { sign_type: _omit, ...noType } = signed;
    expect(verifyEpaySignature(noType, "KEY")).toBe(true);
  });
});

describe("rebate", () => {
  it("is floor(quota × percentage / 100), zero when off or empty", () => {
    expect(rebateOf(5_000_000n, 12.5)).toBe(625_000n);
    expect(rebateOf(999n, 10)).toBe(99n);
    expect(rebateOf(1_500_000n, 33.3333)).toBe(499_999n);
    expect(rebateOf(5_000_000n, 100)).toBe(5_000_000n);
    expect(rebateOf(5_000_000n, 0)).toBe(0n);
    expect(rebateOf(5_000_000n, Number.NaN)).toBe(0n);
    expect(rebateOf(0n, 50)).toBe(0n);
  });
});

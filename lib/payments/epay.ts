// The epay ("易支付") protocol (docs/payments.md, "epay"): the payer's browser posts a form
// to {PayAddress}/submit.php; the provider calls the notify URL with the order's parameters.
// Both directions are signed the same way: the non-empty parameters except sign and
// sign_type, sorted by name, joined as k=v with "&", the merchant key appended, MD5 in
// lowercase hex. Pure: no options, no database.
import { createHash, timingSafeEqual } from "node:crypto";

export const EPAY_SUBMIT_PATH = "/submit.php";

// The console's method names and the provider's payment types.
export const EPAY_TYPES = { zfb: "alipay", wx: "wxpay" } as const;
export type EpayMethod = keyof typeof EPAY_TYPES;

export function epaySignature(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "" && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHash("md5")
    .update(text + key, "utf8")
    .digest("hex");
}

/** Signs the submit form: returns the fields with sign and sign_type added. */
export function signEpayForm(params: Record<string, string>, key: string): Record<string, string> {
  return Object.assign({}, params, { sign: epaySignature(params, key), sign_type: "MD5" });
}

/** Whether a callback's parameters carry a valid signature under `key`. An empty key verifies nothing. */
export function verifyEpaySignature(params: Record<string, string>, key: string): boolean {
  if (!key) return false;
  const given = (params.sign ?? "").toLowerCase();
  if (!/^[a-f0-9]{32}$/.test(given)) return false;
  if (params.sign_type !== undefined && params.sign_type.toUpperCase() !== "MD5") return false;
  const want = epaySignature(params, key);
  return timingSafeEqual(Buffer.from(given), Buffer.from(want));
}

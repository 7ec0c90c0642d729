// The WeChat server (docs/oauth.md, "WeChat"): the user scans the official account's QR code,
// the account answers a verification code (valid three minutes on the WeChat server), and
// we exchange it: GET {WeChatServerAddress}/api/wechat/user?code= with the server token in
// Authorization, answered {success, message, data: openid}.
import "server-only";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { providerJson, str } from "@/lib/oauth/http";

export async function wechatOpenId(code: string): Promise<string> {
  const base = getOption("WeChatServerAddress").replace(/\/+$/, "");
  if (!base) throw new AppError("RULE", "wechat_server_failed");
  const url = `${base}/api/wechat/user?code=${encodeURIComponent(code)}`;
  const answer = await providerJson(url, { headers: { authorization: getOption("WeChatServerToken") } }, "wechat_server_failed");
  const openId = str(answer.data);
  if (answer.success !== true || !openId) throw new AppError("RULE", "wechat_code_invalid");
  return openId;
}

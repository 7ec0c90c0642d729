// The tricky parts of the Chinese providers (docs/providers.md): Tencent's TC3-HMAC-SHA256
// signature (against Tencent's documented example and an independent computation), Baidu's
// access token (minted once per key, cached, one mint in flight, never in a message), and the
// key formats checked at save time.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { baidu, baiduAccessToken, baiduChatBody, baiduEndpoint, forgetBaiduTokens } from "@/lib/relay/providers/baidu";
import { adapterFor } from "@/lib/relay/providers/registry";
import { tc3Authorization, tencent } from "@/lib/relay/providers/tencent";
import { RelayError, type ChannelView, type ChatRequest } from "@/lib/relay/types";
import { tc3Signature } from "@/tests/support/provider-wires/cn";
import type { WireRequest } from "@/tests/support/provider-wires/types";

applyOption("fetch_setting.allow_private_ip", "true");

const hi: ChatRequest = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], stream: false };
const channel = (type: number, key: string, base: string, model = "m"): ChannelView => ({ id: 1, type, base_url: base, key, other: "", upstreamModel: model });

describe("Tencent TC3-HMAC-SHA256", () => {
  it("matches the example of Tencent Cloud's signature v3 documentation", () => {
    // the documented example (CVM DescribeInstances, 2019-02-25; its keys are masked with *
    // in the documentation, and the published signature is of those masked strings)
    const auth = tc3Authorization({
      secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******",
      secretKey: "Gu5t9xGARNpq86cd98joQYCN3*******",
      service: "cvm",
      timestamp: 1551113065,
      signed: { "content-type": "application/json; charset=utf-8", host: "cvm.tencentcloudapi.com" },
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    });
    expect(auth).toBe(
      "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c",
    );
  });

  it("signs a Hunyuan chat as the mock recomputes it, and a changed body no longer matches", async () => {
    const ch = channel(23, "1300000000|AKIDunit|unitSecretKey", "https://hunyuan.tencentcloudapi.com", "hunyuan-lite");
    const up = await tencent.chatRequest(hi, ch);
    expect(up.url).toBe("https://hunyuan.tencentcloudapi.com/");
    expect(up.headers).toMatchObject({ "x-tc-action": "ChatCompletions", "x-tc-version": "2023-09-01" });
    const m = /Credential=AKIDunit\/([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(up.headers.authorization)!;
    expect(m).not.toBeNull();
    const req: WireRequest = {
      method: "POST",
      url: "/",
      headers: { ...up.headers, host: "hunyuan.tencentcloudapi.com" },
      body: Buffer.from(up.body as string),
    };
    const ts = Number(up.headers["x-tc-timestamp"]);
    expect(tc3Signature("unitSecretKey", req, m[2], ts, m[1])).toBe(m[3]);
    expect(tc3Signature("otherSecret", req, m[2], ts, m[1])).not.toBe(m[3]);
    expect(tc3Signature("unitSecretKey", { ...req, body: Buffer.from((up.body as string).replace("hi", "ho")) }, m[2], ts, m[1])).not.toBe(m[3]);
    expect(JSON.parse(up.body as string)).toEqual({ Model: "hunyuan-lite", Messages: [{ Role: "user", Content: "hi" }], Stream: false });
  });

  it("reads Hunyuan's errors carried in a 200 answer", () => {
    expect(() => tencent.parseChat({ Response: { Error: { Code: "AuthFailure.SignatureFailure", Message: "bad signature" }, RequestId: "r" } })).toThrow(
      /AuthFailure.SignatureFailure/,
    );
  });
});

describe("Baidu's access token", () => {
  let srv: http.Server;
  let base = "";
  let mints = 0;
  let hold: (() => void) | undefined;
  beforeAll(async () => {
    srv = http.createServer((req, res) => {
      const u = new URL(req.url ?? "", "http://x");
      if (u.pathname !== "/oauth/2.0/token") return void res.writeHead(404).end();
      if (u.searchParams.get("client_secret") !== "goodSecret") {
        res.writeHead(401, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ error: "invalid_client", error_description: "Client authentication failed" }));
      }
      mints++;
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: `24.${"ab".repeat(16)}.2592000.1700000000.282335-${mints}`, expires_in: 2592000 }));
      };
      if (hold) {
        const prev = hold;
        hold = () => {
          prev();
          answer();
        };
      } else answer();
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => srv.close(() => r())));

  it("mints once for concurrent calls, then serves the cached token", async () => {
    forgetBaiduTokens();
    mints = 0;
    hold = () => {};
    const ch = { base_url: base, key: "apiKeyA|goodSecret" };
    const calls = [baiduAccessToken(ch), baiduAccessToken(ch), baiduAccessToken(ch)];
    await new Promise((r) => setTimeout(r, 100));
    const release = hold;
    hold = undefined;
    release();
    const got = await Promise.all(calls);
    expect(mints).toBe(1);
    expect(new Set(got).size).toBe(1);
    expect(await baiduAccessToken(ch)).toBe(got[0]);
    expect(mints).toBe(1);
    // another key has its own token
    await baiduAccessToken({ base_url: base, key: "apiKeyB|goodSecret" });
    expect(mints).toBe(2);
  });

  it("puts the token in the chat URL, and no refusal carries the key", async () => {
    forgetBaiduTokens();
    const up = await baidu.chatRequest(hi, channel(15, "apiKeyA|goodSecret", base, "ERNIE-4.0-8K"));
    expect(up.url).toMatch(new RegExp(`^${base}/rpc/2\\.0/ai_custom/v1/wenxinworkshop/chat/completions_pro\\?access_token=24\\.`));
    const err = await Promise.resolve(baidu.chatRequest(hi, channel(15, "apiKeyA|wrongSecretValue", base))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RelayError);
    expect((err as RelayError).status).toBe(401);
    expect((err as RelayError).message).not.toContain("wrongSecretValue");
    expect((err as RelayError).message).toContain("Client authentication failed");
  });

  it("masks an access token in an error message", () => {
    const e = baidu.parseError(500, "token 24.0123456789abcdef0123456789abcdef.2592000.1700000000.282335-123 failed", channel(15, "a|b", base));
    expect(e.message).toBe("token *** failed");
  });

  it("maps models to their endpoints, unknown ones to their own name", () => {
    expect(baiduEndpoint("ernie-4.0-8k")).toBe("completions_pro");
    expect(baiduEndpoint("ERNIE-3.5-8K")).toBe("completions");
    expect(baiduEndpoint("ernie-speed-128k")).toBe("ernie-speed-128k");
    expect(baiduEndpoint("my_endpoint")).toBe("my_endpoint");
  });

  it("alternates user and assistant turns, the system apart", () => {
    const body = baiduChatBody({
      ...hi,
      system: "be brief",
      temperature: 1.5,
      messages: [
        { role: "user", content: [{ type: "text", text: "a" }] },
        { role: "user", content: [{ type: "text", text: "b" }] },
        { role: "assistant", content: [{ type: "text", text: "c" }] },
        { role: "user", content: [{ type: "text", text: "d" }] },
      ],
    });
    expect(body).toEqual({
      system: "be brief",
      temperature: 1,
      messages: [
        { role: "user", content: "a\nb" },
        { role: "assistant", content: "c" },
        { role: "user", content: "d" },
      ],
    });
  });
});

describe("key formats checked at save time", () => {
  // the English of each reason (every language: tests/unit/relay/profiles.test.ts)
  const check = (type: number, key: string) => adapterFor(type)!.profile.checkKey?.(key)?.en;
  it("accepts each composite key in its format and explains a wrong one", () => {
    expect(check(15, "ak|sk")).toBeUndefined();
    expect(check(15, "ak")).toMatch(/API Key and Secret Key, joined by \|/);
    expect(check(18, "app|secret|key")).toBeUndefined();
    expect(check(18, "app|secret")).toMatch(/three parts joined by \|/);
    expect(check(23, "1300|AKID|sk")).toBeUndefined();
    expect(check(23, "AKID|sk")).toMatch(/AppId, then an API key's SecretId and SecretKey/);
    expect(check(46, "bce-v3/ALTAK-x/y")).toBeUndefined();
    expect(check(46, "sk-abc")).toMatch(/bce-v3/);
    expect(check(26, "abc.def")).toBeUndefined();
    expect(check(26, "abcdef")).toMatch(/joined by a dot/);
    expect(adapterFor(18)!.profile.keyFormat).toBe("APPID|APISecret|APIKey");
    expect(adapterFor(22)).toBeUndefined();
  });

  it("sends Spark's Bearer as APIKey:APISecret and MiniMax's chat at its own path", async () => {
    const spark = await adapterFor(18)!.chatRequest(hi, channel(18, "app|secret|key", ""));
    expect(spark.url).toBe("https://spark-api-open.xf-yun.com/v1/chat/completions");
    expect(spark.headers.authorization).toBe("Bearer key:secret");
    const mm = await adapterFor(35)!.chatRequest(hi, channel(35, "k", ""));
    expect(mm.url).toBe("https://api.minimaxi.com/v1/text/chatcompletion_v2");
    const glm = await adapterFor(26)!.chatRequest(hi, channel(26, "a.b", ""));
    expect(glm.url).toBe("https://open.bigmodel.cn/api/paas/v4/chat/completions");
    const glmOwn = await adapterFor(26)!.chatRequest(hi, channel(26, "a.b", "https://open.bigmodel.cn/api/paas/v4/"));
    expect(glmOwn.url).toBe("https://open.bigmodel.cn/api/paas/v4/chat/completions");
    expect((await adapterFor(45)!.chatRequest(hi, channel(45, "k", ""))).url).toBe("https://ark.cn-beijing.volces.com/api/v3/chat/completions");
    expect((await adapterFor(46)!.chatRequest(hi, channel(46, "bce-v3/x", ""))).url).toBe("https://qianfan.baidubce.com/v2/chat/completions");
    expect((await adapterFor(17)!.chatRequest(hi, channel(17, "sk-x", ""))).url).toBe("https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions");
    expect((await adapterFor(17)!.chatRequest(hi, channel(17, "sk-x", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1"))).url).toBe(
      "https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions",
    );
    expect(() => adapterFor(35)!.parseChat({ base_resp: { status_code: 1004, status_msg: "login fail" } })).toThrow(/login fail \(1004\)/);
  });
});

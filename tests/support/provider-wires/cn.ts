// The Chinese providers (docs/providers.md), each on the wire it offers today: the OpenAI-compatible
// ones (Qianfan V2, DashScope, Spark, Zhipu, Ark, MiniMax) with their own paths, auth and answer
// quirks, Baidu's classic ERNIE API (an access token minted from APIKey|SecretKey, then sent in
// the URL) and Tencent Hunyuan's native API (TC3-HMAC-SHA256, recomputed here to check it).
// Each mock refuses a request without the right credentials, in the provider's own error shape.
import { createHash, createHmac } from "node:crypto";
import type http from "node:http";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "./types";

const PIECES = WIRE_TEXT.split(/(?= )/);
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const sse = (res: http.ServerResponse, frames: unknown[], done: boolean) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const f of frames) res.write(`data: ${JSON.stringify(f)}\n\n`);
  res.end(done ? "data: [DONE]\n\n" : "");
};
const oaUsage = { prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion, total_tokens: WIRE_USAGE.prompt + WIRE_USAGE.completion };

/** The last user text of an OpenAI-style body must be the client's "hi". */
function expectHi(label: string, messages: unknown) {
  const list = messages as Array<{ role?: string; content?: unknown }> | undefined;
  const last = list?.[list.length - 1];
  if (!last || last.role !== "user" || last.content !== "hi") throw new Error(`${label}: unexpected messages ${JSON.stringify(messages)}`);
}

// ---- OpenAI-compatible hosts with their own path and auth ----

interface OaHost {
  type: number;
  label: string;
  model: string;
  key: string;
  /** the Authorization header the provider expects */
  auth: string;
  path: string;
  /** the channel's base URL relative to the mock (a provider's documented base may carry a path) */
  basePath?: string;
  /** the provider's refusal of a wrong key */
  refuse(res: http.ServerResponse): void;
  answer(req: WireRequest, res: http.ServerResponse): void;
}

function oaWire(h: OaHost): ProviderWire {
  return {
    type: h.type,
    label: h.label,
    model: h.model,
    channel: (url) => ({ key: h.key, base_url: url + (h.basePath ?? "") }),
    handle(req, res) {
      if (req.method !== "POST" || req.url.split("?")[0] !== h.path) return void res.writeHead(404).end();
      if (req.headers.authorization !== h.auth) return h.refuse(res);
      expectHi(h.label, req.json?.messages);
      if (req.json?.model !== h.model) throw new Error(`${h.label}: model ${req.json?.model}`);
      h.answer(req, res);
    },
  };
}

/** OpenAI's answer: usage in a last chunk without choices when stream_options.include_usage asks for it. */
function openaiStyle(req: WireRequest, res: http.ServerResponse, extra: Record<string, unknown> = {}) {
  const model = String(req.json.model);
  if (!req.json.stream)
    return json(res, 200, {
      id: "chatcmpl-cn",
      object: "chat.completion",
      created: 1,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: WIRE_TEXT }, finish_reason: "stop" }],
      usage: oaUsage,
      ...extra,
    });
  const chunk = (choices: unknown[], more: object = {}) => ({
    id: "chatcmpl-cn",
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices,
    ...extra,
    ...more,
  });
  const frames: unknown[] = PIECES.map((p) => chunk([{ index: 0, delta: { content: p }, finish_reason: null }]));
  frames.push(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
  // these hosts send the usage chunk only when asked (stream_options.include_usage)
  if (req.json.stream_options?.include_usage) frames.push(chunk([], { usage: oaUsage }));
  sse(res, frames, true);
}

const baiduV2: ProviderWire = oaWire({
  type: 46,
  label: "baidu-v2 (qianfan)",
  model: "ernie-4.5-turbo-32k",
  key: "bce-v3/ALTAK-wire0123/0123456789abcdef",
  auth: "Bearer bce-v3/ALTAK-wire0123/0123456789abcdef",
  path: "/v2/chat/completions",
  refuse: (res) => json(res, 401, { error: { code: "invalid_iam_token", message: "IAM Certification failed", type: "invalid_request_error" }, id: "as-wire" }),
  answer: (req, res) => openaiStyle(req, res),
});

const ali: ProviderWire = oaWire({
  type: 17,
  label: "ali (dashscope compatible mode)",
  model: "qwen-plus",
  key: "sk-dashscope0123456789",
  auth: "Bearer sk-dashscope0123456789",
  path: "/compatible-mode/v1/chat/completions",
  refuse: (res) =>
    json(res, 401, {
      error: { message: "Incorrect API key provided. ", type: "invalid_request_error", param: null, code: "invalid_api_key" },
      request_id: "r",
    }),
  answer: (req, res) => openaiStyle(req, res, { system_fingerprint: null }),
});

const volcengine: ProviderWire = oaWire({
  type: 45,
  label: "volcengine (ark)",
  model: "doubao-1-5-pro-32k-250115",
  key: "ark-wire-0123456789",
  auth: "Bearer ark-wire-0123456789",
  path: "/api/v3/chat/completions",
  refuse: (res) =>
    json(res, 401, {
      error: { code: "AuthenticationError", message: "The API key or AK/SK in the request is missing or invalid.", param: "", type: "Unauthorized" },
    }),
  answer: (req, res) => openaiStyle(req, res, { service_tier: "default" }),
});

// Zhipu: the usage rides on the chunk that finishes, whether or not it was asked for
const zhipu: ProviderWire = oaWire({
  type: 26,
  label: "zhipu (glm v4)",
  model: "glm-4-plus",
  key: "0123456789abcdef0123456789abcdef.WireSecret012345",
  auth: "Bearer 0123456789abcdef0123456789abcdef.WireSecret012345",
  path: "/api/paas/v4/chat/completions",
  refuse: (res) => json(res, 401, { error: { code: "1000", message: "身份验证失败。" } }),
  answer(req, res) {
    const model = String(req.json.model);
    if (!req.json.stream)
      return json(res, 200, {
        created: 1,
        id: "zp-wire",
        model,
        request_id: "zp-wire",
        choices: [{ finish_reason: "stop", index: 0, message: { content: WIRE_TEXT, role: "assistant" } }],
        usage: oaUsage,
      });
    const frames: unknown[] = PIECES.map((p) => ({ id: "zp-wire", created: 1, model, choices: [{ index: 0, delta: { role: "assistant", content: p } }] }));
    frames.push({
      id: "zp-wire",
      created: 1,
      model,
      choices: [{ index: 0, finish_reason: "stop", delta: { role: "assistant", content: "" } }],
      usage: oaUsage,
    });
    sse(res, frames, true);
  },
});

// Spark's HTTP API: Bearer APIKey:APISecret (the APPID is not sent); code/message/sid on every
// answer; the usage on the last chunk
const SPARK = { appId: "a1b2c3d4", apiSecret: "WireSparkSecret0123456789", apiKey: "wirespark0123456789abcdef" };
const xunfei: ProviderWire = oaWire({
  type: 18,
  label: "xunfei (spark http)",
  model: "generalv3.5",
  key: `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`,
  auth: `Bearer ${SPARK.apiKey}:${SPARK.apiSecret}`,
  path: "/v1/chat/completions",
  refuse: (res) => json(res, 401, { error: { message: "HMAC signature cannot be verified", type: "api_error", param: null, code: null } }),
  answer(req, res) {
    const head = { code: 0, message: "Success", sid: "cha000wire@dx1" };
    if (!req.json.stream) return json(res, 200, { ...head, choices: [{ message: { role: "assistant", content: WIRE_TEXT }, index: 0 }], usage: oaUsage });
    const frames: unknown[] = PIECES.map((p) => ({ ...head, id: head.sid, created: 1, choices: [{ delta: { role: "assistant", content: p }, index: 0 }] }));
    frames.push({
      ...head,
      id: head.sid,
      created: 1,
      choices: [{ delta: { role: "assistant", content: "" }, index: 0, finish_reason: "stop" }],
      usage: oaUsage,
    });
    sse(res, frames, true);
  },
});

// MiniMax chatcompletion_v2: a refused key is HTTP 200 with base_resp.status_code 1004; the
// stream's last chunk repeats the whole message (no delta) with the usage
const minimax: ProviderWire = oaWire({
  type: 35,
  label: "minimax (chatcompletion_v2)",
  model: "MiniMax-Text-01",
  key: "eyJ.wire-minimax-0123456789",
  auth: "Bearer eyJ.wire-minimax-0123456789",
  path: "/v1/text/chatcompletion_v2",
  refuse: (res) =>
    json(res, 200, {
      base_resp: { status_code: 1004, status_msg: "login fail: Please carry the API secret key in the 'Authorization' field of the request header" },
    }),
  answer(req, res) {
    const model = String(req.json.model);
    const ok = { status_code: 0, status_msg: "" };
    const usage = { total_tokens: oaUsage.total_tokens, total_characters: 0, prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion };
    const whole = { finish_reason: "stop", index: 0, message: { content: WIRE_TEXT, role: "assistant", name: "MiniMax AI" } };
    if (!req.json.stream)
      return json(res, 200, {
        id: "mm-wire",
        choices: [whole],
        created: 1,
        model,
        object: "chat.completion",
        usage,
        input_sensitive: false,
        output_sensitive: false,
        base_resp: ok,
      });
    const frames: unknown[] = PIECES.map((p) => ({
      id: "mm-wire",
      choices: [{ index: 0, delta: { content: p, role: "assistant", name: "MiniMax AI" } }],
      created: 1,
      model,
      object: "chat.completion.chunk",
      usage: null,
      input_sensitive: false,
      output_sensitive: false,
    }));
    frames.push({
      id: "mm-wire",
      choices: [whole],
      created: 1,
      model,
      object: "chat.completion",
      usage,
      input_sensitive: false,
      output_sensitive: false,
      base_resp: ok,
    });
    sse(res, frames, false);
  },
});

// ---- Baidu's classic ERNIE API ----

const BAIDU = { apiKey: "WireBaiduApiKey0123", secretKey: "WireBaiduSecretKey0123456789" };
let baiduTokens = 0;
const baiduTokenNow = () => `24.${createHash("md5").update(`t${baiduTokens}`).digest("hex")}.2592000.1700000000.282335-${40000000 + baiduTokens}`;

const baidu: ProviderWire = {
  type: 15,
  label: "baidu (classic ernie)",
  model: "ernie-4.0-8k",
  channel: (url) => ({ key: `${BAIDU.apiKey}|${BAIDU.secretKey}`, base_url: url }),
  handle(req, res) {
    const u = new URL(req.url, "http://wire");
    if (req.method === "POST" && u.pathname === "/oauth/2.0/token") {
      const q = u.searchParams;
      if (q.get("grant_type") !== "client_credentials") return json(res, 400, { error: "unsupported_grant_type", error_description: "unsupported grant type" });
      if (q.get("client_id") !== BAIDU.apiKey) return json(res, 401, { error: "invalid_client", error_description: "unknown client id" });
      if (q.get("client_secret") !== BAIDU.secretKey) return json(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
      baiduTokens++;
      return json(res, 200, {
        refresh_token: "25.wire",
        expires_in: 2592000,
        session_key: "wire",
        access_token: baiduTokenNow(),
        scope: "public brain_all_scope wenxinworkshop_mgr",
        session_secret: "wire",
      });
    }
    if (req.method !== "POST" || !u.pathname.startsWith("/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/")) return void res.writeHead(404).end();
    if (!baiduTokens || u.searchParams.get("access_token") !== baiduTokenNow())
      return json(res, 200, { error_code: 110, error_msg: "Access token invalid or no longer valid" });
    const b = req.json ?? {};
    const msgs = b.messages as Array<{ role: string; content: string }>;
    if (!Array.isArray(msgs) || msgs.length % 2 !== 1 || msgs.some((m, i) => m.role !== (i % 2 ? "assistant" : "user")))
      return json(res, 200, { error_code: 336006, error_msg: "the length of messages must be an odd number" });
    expectHi("baidu", msgs);
    if ("model" in b) return json(res, 200, { error_code: 336003, error_msg: "model is not a field of this API" });
    const head = { id: "as-wire", object: "chat.completion", created: 1, is_truncated: false, need_clear_history: false, finish_reason: "normal" };
    const usage = (completion: number) => ({ prompt_tokens: WIRE_USAGE.prompt, completion_tokens: completion, total_tokens: WIRE_USAGE.prompt + completion });
    if (!b.stream) return json(res, 200, { ...head, result: WIRE_TEXT, usage: usage(WIRE_USAGE.completion) });
    // each frame's usage is the count so far; the last one (is_end) is the whole
    sse(
      res,
      PIECES.map((p, i) => {
        const last = i === PIECES.length - 1;
        return { ...head, sentence_id: i, is_end: last, result: p, usage: usage(last ? WIRE_USAGE.completion : 0) };
      }),
      false,
    );
  },
  check(requests, stream) {
    const paths = requests.map((r) => new URL(r.url, "http://wire").pathname);
    const chats = paths.filter((p) => p.includes("/wenxinworkshop/chat/"));
    if (chats.length !== 1 || chats[0] !== "/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro")
      throw new Error(`baidu: expected one chat at the completions_pro endpoint, got ${paths.join(", ")}`);
    // the first call mints the access token; the second one uses the cached token
    const mints = paths.filter((p) => p === "/oauth/2.0/token").length;
    if (mints !== (stream ? 0 : 1)) throw new Error(`baidu: ${mints} token requests for the ${stream ? "streamed" : "first"} call`);
  },
};

// ---- Tencent Hunyuan (TC3-HMAC-SHA256) ----

const TENCENT = { appId: "1300000000", secretId: "AKIDwire0123456789abcdefghijklmnop", secretKey: "WireTencentSecretKey0123456789ab" };

/** TC3-HMAC-SHA256 as Tencent Cloud's API 3.0 documents it, computed from the request as it arrived. */
export function tc3Signature(secretKey: string, req: WireRequest, signedHeaders: string, timestamp: number, scope: string): string {
  const canonicalHeaders = signedHeaders
    .split(";")
    .map((n) => {
      const v = req.headers[n];
      return `${n}:${String(Array.isArray(v) ? v.join(",") : (v ?? ""))
        .trim()
        .toLowerCase()}\n`;
    })
    .join("");
  const hex = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hex(req.body)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${hex(canonical)}`;
  const [date, service] = scope.split("/");
  let k: Buffer = createHmac("sha256", "TC3" + secretKey)
    .update(date)
    .digest();
  k = createHmac("sha256", k).update(service).digest();
  k = createHmac("sha256", k).update("tc3_request").digest();
  return createHmac("sha256", k).update(toSign).digest("hex");
}

const tencentRefusal = (res: http.ServerResponse, code: string, message: string) =>
  json(res, 200, { Response: { Error: { Code: code, Message: message }, RequestId: "wire" } });

const tencent: ProviderWire = {
  type: 23,
  label: "tencent (hunyuan tc3)",
  model: "hunyuan-turbo",
  channel: (url) => ({ key: `${TENCENT.appId}|${TENCENT.secretId}|${TENCENT.secretKey}`, base_url: url }),
  handle(req, res) {
    if (req.method !== "POST" || req.url !== "/") return void res.writeHead(404).end();
    const h = req.headers;
    if (h["x-tc-action"] !== "ChatCompletions") return tencentRefusal(res, "InvalidAction", `action ${h["x-tc-action"]}`);
    if (h["x-tc-version"] !== "2023-09-01") return tencentRefusal(res, "NoSuchVersion", `version ${h["x-tc-version"]}`);
    const ts = Number(h["x-tc-timestamp"]);
    if (!Number.isInteger(ts) || Math.abs(ts - Date.now() / 1000) > 300) return tencentRefusal(res, "AuthFailure.SignatureExpire", "Signature expired");
    const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2}\/hunyuan\/tc3_request), SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      String(h.authorization ?? ""),
    );
    if (!m) return tencentRefusal(res, "AuthFailure.InvalidAuthorization", "Authorization header format error");
    const [, secretId, scope, signed, signature] = m;
    if (secretId !== TENCENT.secretId) return tencentRefusal(res, "AuthFailure.SecretIdNotFound", "The SecretId is not found");
    if (scope.slice(0, 10) !== new Date(ts * 1000).toISOString().slice(0, 10)) return tencentRefusal(res, "AuthFailure.SignatureFailure", "credential date");
    if (!signed.split(";").includes("host") || !signed.split(";").includes("content-type"))
      return tencentRefusal(res, "AuthFailure.SignatureFailure", "host and content-type must be signed");
    if (tc3Signature(TENCENT.secretKey, req, signed, ts, scope) !== signature)
      return tencentRefusal(res, "AuthFailure.SignatureFailure", "The provided credentials could not be validated. Please check your signature is correct.");
    const b = req.json ?? {};
    if (b.Model !== "hunyuan-turbo") return tencentRefusal(res, "InvalidParameterValue.Model", `model ${b.Model}`);
    const msgs = b.Messages as Array<{ Role: string; Content: string }>;
    const last = msgs?.[msgs.length - 1];
    if (!last || last.Role !== "user" || last.Content !== "hi") return tencentRefusal(res, "InvalidParameter", "Messages");
    const Usage = { PromptTokens: WIRE_USAGE.prompt, CompletionTokens: WIRE_USAGE.completion, TotalTokens: WIRE_USAGE.prompt + WIRE_USAGE.completion };
    if (!b.Stream)
      return json(res, 200, {
        Response: {
          RequestId: "wire",
          Note: "以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记",
          Choices: [{ Message: { Role: "assistant", Content: WIRE_TEXT }, FinishReason: "stop", Index: 0 }],
          Created: 1,
          Id: "hy-wire",
          Usage,
        },
      });
    sse(
      res,
      PIECES.map((p, i) => {
        const lastPiece = i === PIECES.length - 1;
        return {
          Note: "以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记",
          Choices: [{ Delta: { Role: "assistant", Content: p }, FinishReason: lastPiece ? "stop" : "", Index: 0 }],
          Created: 1,
          Id: "hy-wire",
          Usage: {
            ...Usage,
            CompletionTokens: lastPiece ? WIRE_USAGE.completion : i + 1,
            TotalTokens: WIRE_USAGE.prompt + (lastPiece ? WIRE_USAGE.completion : i + 1),
          },
        };
      }),
      false,
    );
  },
};

export const CN_WIRES: ProviderWire[] = [baidu, ali, xunfei, tencent, zhipu, minimax, volcengine, baiduV2];

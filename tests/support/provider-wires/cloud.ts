// The cloud platforms' wires: AWS Bedrock's Converse API (SigV4-signed requests, checked here by
// an independent SigV4 computation; ConverseStream answered in AWS's binary event stream,
// encoded by AWS's own codec) and Google Vertex AI (a service-account key whose JWT is verified
// by the mock's token endpoint, which answers an access token the chat endpoints then demand;
// Gemini's generateContent and Anthropic's rawPredict).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from "jose";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "./types";

const pieces = () => WIRE_TEXT.split(/(?= )/);

// ---------- AWS SigV4, computed by hand (docs: AWS "Create a signed AWS API request") ----------

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
// RFC 3986 encoding, as SigV4 asks for
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());

/**
 * Why a request's SigV4 Authorization does not hold for this secret (or undefined when it
 * does): the canonical request is rebuilt from what arrived (method, path as sent, query,
 * the signed headers, the body's hash) and signed again.
 */
export function sigv4Refusal(req: WireRequest, creds: { accessKeyId: string; secretAccessKey: string; region: string; service: string }): string | undefined {
  const auth = String(req.headers.authorization ?? "");
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return `no SigV4 Authorization header (${auth.slice(0, 40)})`;
  const [, akid, date, region, service, signedHeaders, signature] = m;
  if (akid !== creds.accessKeyId) return "unknown access key";
  if (region !== creds.region || service !== creds.service) return `credential scope ${region}/${service} is not ${creds.region}/${creds.service}`;
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  if (!amzDate.startsWith(date)) return "x-amz-date does not match the credential's date";
  const names = signedHeaders.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) return "host and x-amz-date must be signed";
  const q = req.url.indexOf("?");
  const path = q === -1 ? req.url : req.url.slice(0, q);
  const query = q === -1 ? "" : req.url.slice(q + 1);
  const canonicalPath = path
    .split("/")
    .map((seg) => uriEncode(seg))
    .join("/");
  const canonicalQuery = query
    ? query
        .split("&")
        .map((kv) => kv.split("=").map((x) => uriEncode(decodeURIComponent(x.replace(/\+/g, " ")))))
        .sort((a, b) => (a[0] === b[0] ? ((a[1] ?? "") < (b[1] ?? "") ? -1 : 1) : a[0] < b[0] ? -1 : 1))
        .map(([k, v]) => `${k}=${v ?? ""}`)
        .join("&")
    : "";
  const canonicalHeaders = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, sha256Hex(req.body)].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonical)].join("\n");
  const kDate = hmac("AWS4" + creds.secretAccessKey, date);
  const kSigning = hmac(hmac(hmac(kDate, region), service), "aws4_request");
  const expected = createHmac("sha256", kSigning).update(toSign).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex")) ? undefined : "the signature does not match";
}

// ---------- AWS Bedrock: Converse and ConverseStream ----------

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: "string" as const, value });
/** One event of a ConverseStream answer, as AWS frames it (with the "p" padding field Bedrock adds). */
export function bedrockEvent(eventType: string, payload: object): Uint8Array {
  return codec.encode({
    headers: { ":event-type": str(eventType), ":content-type": str("application/json"), ":message-type": str("event") },
    body: fromUtf8(JSON.stringify({ ...payload, p: "abcdefghijklmnopqrstuvwxyzABCDEF".slice(0, 7) })),
  });
}
export function bedrockException(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ":exception-type": str(type), ":content-type": str("application/json"), ":message-type": str("exception") },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

const BEDROCK_CREDS = {
  accessKeyId: "AKIAWIRETEST0EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYWIRETESTKEY",
  region: "us-west-2",
  service: "bedrock",
};
const BEDROCK_MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";

function bedrockWire(): ProviderWire {
  const usage = { inputTokens: WIRE_USAGE.prompt, outputTokens: WIRE_USAGE.completion, totalTokens: WIRE_USAGE.prompt + WIRE_USAGE.completion };
  return {
    type: 33,
    label: "bedrock",
    model: BEDROCK_MODEL,
    channel: (url) => ({ key: `${BEDROCK_CREDS.accessKeyId}|${BEDROCK_CREDS.secretAccessKey}|${BEDROCK_CREDS.region}`, base_url: url }),
    handle: (req, res) => {
      const refusal = sigv4Refusal(req, BEDROCK_CREDS);
      if (refusal) {
        res.writeHead(403, { "content-type": "application/json", "x-amzn-errortype": "InvalidSignatureException" });
        res.end(JSON.stringify({ message: `The request signature we calculated does not match the signature you provided (${refusal})` }));
        return;
      }
      // the control plane's model list (the channel's base URL serves both planes here)
      if (req.method === "GET" && req.url === "/foundation-models") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            modelSummaries: [
              { modelId: BEDROCK_MODEL, providerName: "Anthropic", outputModalities: ["TEXT"], inferenceTypesSupported: ["ON_DEMAND"] },
              { modelId: "amazon.titan-image-generator-v2:0", providerName: "Amazon", outputModalities: ["IMAGE"], inferenceTypesSupported: ["ON_DEMAND"] },
              { modelId: "amazon.nova-micro-v1:0", providerName: "Amazon", outputModalities: ["TEXT"], inferenceTypesSupported: ["ON_DEMAND"] },
            ],
          }),
        );
        return;
      }
      const m = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.url);
      if (req.method !== "POST" || !m || decodeURIComponent(m[1]) !== BEDROCK_MODEL) {
        res
          .writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "ResourceNotFoundException" })
          .end(JSON.stringify({ message: "no such model" }));
        return;
      }
      const body = req.json;
      const first = body?.messages?.[0];
      if (!first || first.role !== "user" || first.content?.[0]?.text !== "hi" || "model" in body) {
        res
          .writeHead(400, { "content-type": "application/json", "x-amzn-errortype": "ValidationException" })
          .end(JSON.stringify({ message: "bad Converse body" }));
        return;
      }
      if (m[2] === "converse") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            output: { message: { role: "assistant", content: [{ text: WIRE_TEXT }] } },
            stopReason: "end_turn",
            usage,
            metrics: { latencyMs: 12 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      const frames = [
        bedrockEvent("messageStart", { role: "assistant" }),
        ...pieces().map((text) => bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })),
        bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
        bedrockEvent("messageStop", { stopReason: "end_turn" }),
        bedrockEvent("metadata", { usage, metrics: { latencyMs: 12 } }),
      ];
      // the bytes are cut across frame boundaries, as a network may cut them
      const all = Buffer.concat(frames);
      for (let at = 0; at < all.length; at += 37) res.write(all.subarray(at, at + 37));
      res.end();
    },
    check: (reqs, stream) => {
      const chat = reqs.filter((r) => r.url.startsWith("/model/"));
      if (chat.length !== 1) throw new Error(`bedrock: expected one Converse call, got ${chat.length}`);
      if (!chat[0].url.endsWith(stream ? "/converse-stream" : "/converse")) throw new Error(`bedrock: wrong path ${chat[0].url}`);
      const refusal = sigv4Refusal(chat[0], BEDROCK_CREDS);
      if (refusal) throw new Error(`bedrock: ${refusal}`);
    },
  };
}

// ---------- Google Vertex AI ----------

const VERTEX_PROJECT = "wire-project";
const VERTEX_REGION = "us-east5";
const CLIENT_EMAIL = "relay@wire-project.iam.gserviceaccount.com";
// the service account's key pair, made for this run
const keyPair = await generateKeyPair("RS256", { extractable: true });
const privatePem = await exportPKCS8(keyPair.privateKey);
const publicKey = await importSPKI(await exportSPKI(keyPair.publicKey), "RS256");

/** The service-account key of the wires, its token_uri at the mock. */
export function serviceAccountKey(mockUrl: string, privateKey = privatePem): string {
  return JSON.stringify({
    type: "service_account",
    project_id: VERTEX_PROJECT,
    private_key_id: "0123456789abcdef",
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    client_id: "1234567890",
    token_uri: `${mockUrl}/token`,
  });
}

/** The token endpoint's state: each access token it issued. */
export interface TokenEndpoint {
  issued: Set<string>;
  mints: number;
}

/**
 * Google's OAuth2 token endpoint for a JWT-bearer grant: the assertion must be signed by the
 * service account's key, issued by its email, for this token URI, with the cloud-platform scope.
 */
export async function answerToken(req: WireRequest, res: http.ServerResponse, state: TokenEndpoint, host: string): Promise<void> {
  const form = new URLSearchParams(req.body.toString("utf8"));
  const fail = (error: string, description: string) => {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error, error_description: description }));
  };
  if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) return fail("invalid_request", "not a form");
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return fail("unsupported_grant_type", "Invalid grant_type");
  try {
    const { payload } = await jwtVerify(form.get("assertion") ?? "", publicKey, {
      issuer: CLIENT_EMAIL,
      audience: `http://${host}/token`,
      algorithms: ["RS256"],
    });
    if (payload.scope !== "https://www.googleapis.com/auth/cloud-platform") return fail("invalid_scope", "wrong scope");
  } catch {
    return fail("invalid_grant", "Invalid JWT Signature.");
  }
  const token = `ya29.wire-${++state.mints}-${Math.random().toString(36).slice(2)}`;
  state.issued.add(token);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }));
}

function geminiAnswer(req: WireRequest, res: http.ServerResponse, stream: boolean): void {
  const usageMetadata = {
    promptTokenCount: WIRE_USAGE.prompt,
    candidatesTokenCount: WIRE_USAGE.completion,
    totalTokenCount: WIRE_USAGE.prompt + WIRE_USAGE.completion,
  };
  const body = req.json;
  if (!Array.isArray(body?.contents) || body.contents[0]?.role !== "user" || body.contents[0]?.parts?.[0]?.text !== "hi") {
    res
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { code: 400, message: "bad contents", status: "INVALID_ARGUMENT" } }));
    return;
  }
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        candidates: [{ content: { role: "model", parts: [{ text: WIRE_TEXT }] }, finishReason: "STOP" }],
        usageMetadata,
        modelVersion: "gemini-2.5-flash",
        responseId: "vertex-wire",
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const parts = pieces();
  parts.forEach((text, i) => {
    const last = i === parts.length - 1;
    const c = { candidates: [{ content: { role: "model", parts: [{ text }] }, ...(last ? { finishReason: "STOP" } : {}) }], modelVersion: "gemini-2.5-flash" };
    res.write(`data: ${JSON.stringify(last ? { ...c, usageMetadata } : c)}\r\n\r\n`);
  });
  res.end();
}

function claudeAnswer(req: WireRequest, res: http.ServerResponse, stream: boolean): void {
  const body = req.json;
  if (
    body?.anthropic_version !== "vertex-2023-10-16" ||
    "model" in body ||
    body.messages?.[0]?.content?.[0]?.text !== "hi" ||
    typeof body.max_tokens !== "number"
  ) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad rawPredict body" } }));
    return;
  }
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "msg_vrtx_wire",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-20250514",
        content: [{ type: "text", text: WIRE_TEXT }],
        stop_reason: "end_turn",
        usage: { input_tokens: WIRE_USAGE.prompt, output_tokens: WIRE_USAGE.completion },
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
  const ev = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
  ev("message_start", {
    message: {
      id: "msg_vrtx_wire",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-20250514",
      content: [],
      usage: { input_tokens: WIRE_USAGE.prompt, output_tokens: 1 },
    },
  });
  ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
  for (const text of pieces()) ev("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
  ev("content_block_stop", { index: 0 });
  ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: WIRE_USAGE.completion } });
  ev("message_stop", {});
  res.end();
}

function vertexWire(label: string, model: string, publisher: "google" | "anthropic"): ProviderWire {
  const tokens: TokenEndpoint = { issued: new Set(), mints: 0 };
  const base = `/v1/projects/${VERTEX_PROJECT}/locations/${VERTEX_REGION}/publishers/${publisher}/models/${model}:`;
  const actions =
    publisher === "google" ? { plain: "generateContent", stream: "streamGenerateContent?alt=sse" } : { plain: "rawPredict", stream: "streamRawPredict" };
  return {
    type: 41,
    label,
    model,
    channel: (url) => ({ key: serviceAccountKey(url), base_url: url, other: VERTEX_REGION }),
    handle: async (req, res) => {
      if (req.method === "POST" && req.url === "/token") return answerToken(req, res, tokens, String(req.headers.host));
      const auth = String(req.headers.authorization ?? "");
      if (!auth.startsWith("Bearer ") || !tokens.issued.has(auth.slice(7))) {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } }));
        return;
      }
      // the Model Garden's publisher models (one page each)
      const list = /^\/v1beta1\/publishers\/(google|anthropic)\/models\?/.exec(req.url);
      if (req.method === "GET" && list) {
        const publisherModels =
          list[1] === "google"
            ? [{ name: "publishers/google/models/gemini-2.5-flash" }, { name: "publishers/google/models/gemini-2.5-pro" }]
            : [{ name: "publishers/anthropic/models/claude-sonnet-4", versionId: "20250514" }];
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ publisherModels }));
        return;
      }
      const stream = req.url === base + actions.stream;
      if (req.method !== "POST" || (!stream && req.url !== base + actions.plain)) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.url}`, status: "NOT_FOUND" } }));
        return;
      }
      if (publisher === "google") geminiAnswer(req, res, stream);
      else claudeAnswer(req, res, stream);
    },
    check: (reqs, stream) => {
      const chat = reqs.filter((r) => r.url !== "/token");
      if (chat.length !== 1 || chat[0].url !== base + (stream ? actions.stream : actions.plain))
        throw new Error(`${label}: expected one call to ${base}, got ${chat.map((r) => r.url)}`);
      const auth = String(chat[0].headers.authorization);
      if (!tokens.issued.has(auth.slice(7))) throw new Error(`${label}: the bearer token was not minted by the token endpoint`);
      // the token is cached: the second chat mints none
      if (tokens.mints !== 1) throw new Error(`${label}: ${tokens.mints} tokens minted for two chats, expected 1`);
    },
  };
}

export const CLOUD_WIRES: ProviderWire[] = [
  bedrockWire(),
  vertexWire("vertex-gemini", "gemini-2.5-flash", "google"),
  vertexWire("vertex-claude", "claude-sonnet-4@20250514", "anthropic"),
];

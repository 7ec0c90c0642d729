// The relay API's OpenAPI 3.1 document (docs/api-reference.md): the chat relay's routes
// (lib/relay/routes.ts) and the task relay's (lib/tasks/handler.ts), with the request schemas
// the relay parses with (lib/relay/formats). Served at GET /v1/openapi.json by server.ts,
// without a key: it describes the routes and holds no secret.
import "server-only";
import type { z } from "zod";
import { anthropicMessagesRequest } from "@/lib/relay/formats/anthropic-messages";
import { geminiRequest } from "@/lib/relay/formats/gemini";
import { batchEmbedContentsRequest, embedContentRequest } from "@/lib/relay/formats/gemini-embeddings";
import { openaiChatRequest } from "@/lib/relay/formats/openai-chat";
import { openaiResponsesRequest } from "@/lib/relay/formats/openai-responses";
import { MJ_SUBMIT_KINDS } from "@/lib/tasks/mj";
import { dict } from "@/lib/own-keys";
import { OPENAPI_VERSION } from "@/lib/openapi/console";
import { SchemaBag, type JsonSchema } from "@/lib/openapi/schema";

type Auth = "token" | "session" | "public" | "mj-callback";
type ErrorShape = "openai" | "anthropic" | "gemini" | "midjourney" | "suno";

export type RelayOperation = {
  method: "get" | "post";
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  errors: ErrorShape;
  body?: { schema: z.ZodType } | { json: JsonSchema } | { multipart: JsonSchema };
  stream?: boolean; // answers server-sent events when the request asks for a stream
  params?: Record<string, JsonSchema>;
  query?: Record<string, JsonSchema>;
  produces?: string; // a non-JSON answer
};

// Bodies the relay does not parse into a canonical request: passed through to the upstream as
// sent, after reading `model` (docs/relay.md).
const passthroughBody: JsonSchema = {
  type: "object",
  required: ["model"],
  properties: { model: { type: "string" } },
  additionalProperties: true,
};
const uploadBody: JsonSchema = {
  type: "object",
  required: ["model", "file"],
  properties: { model: { type: "string" }, file: { type: "string", contentMediaType: "application/octet-stream" } },
  additionalProperties: true,
};
const anyObject: JsonSchema = { type: "object", additionalProperties: true };
const str: JsonSchema = { type: "string" };

const openai = (path: string, summary: string, body: RelayOperation["body"], extra: Partial<RelayOperation> = {}): RelayOperation => ({
  method: "post",
  path,
  tag: "OpenAI",
  summary,
  auth: "token",
  errors: "openai",
  body,
  ...extra,
});

export const RELAY_OPERATIONS: RelayOperation[] = [
  { method: "get", path: "/v1/openapi.json", tag: "Meta", summary: "This document", auth: "public", errors: "openai" },
  {
    method: "get",
    path: "/v1/models",
    tag: "OpenAI",
    summary: "The models the token may use",
    description: "OpenAI's list shape; Anthropic's when the request carries an anthropic-version header.",
    auth: "token",
    errors: "openai",
  },
  {
    method: "get",
    path: "/v1/models/{model}",
    tag: "OpenAI",
    summary: "One model the token may use",
    description: "OpenAI's shape; Anthropic's when the request carries an anthropic-version header.",
    auth: "token",
    errors: "openai",
    params: { model: str },
  },
  openai("/v1/chat/completions", "Chat Completions, to any channel's format", { schema: openaiChatRequest }, { stream: true }),
  openai("/v1/responses", "Responses API: passed through where the upstream has it, else translated", { schema: openaiResponsesRequest }, { stream: true }),
  openai("/v1/completions", "Legacy completions (passed through)", { json: passthroughBody }, { stream: true }),
  openai("/v1/embeddings", "Embeddings (passed through)", { json: passthroughBody }),
  openai("/v1/images/generations", "Image generation (passed through)", { json: passthroughBody }),
  openai("/v1/audio/speech", "Text to speech (passed through); answers audio", { json: passthroughBody }, { produces: "application/octet-stream" }),
  openai("/v1/audio/transcriptions", "Speech to text (passed through)", { multipart: uploadBody }),
  openai("/v1/audio/translations", "Speech to English text (passed through)", { multipart: uploadBody }),
  openai("/v1/moderations", "Moderations (passed through)", { json: passthroughBody }),
  openai("/v1/rerank", "Rerank (passed through)", { json: passthroughBody }),
  {
    method: "get",
    path: "/v1/dashboard/billing/subscription",
    tag: "OpenAI",
    summary: "The token's quota as OpenAI's old billing subscription",
    auth: "token",
    errors: "openai",
  },
  {
    method: "get",
    path: "/v1/dashboard/billing/usage",
    tag: "OpenAI",
    summary: "The token's usage as OpenAI's old billing usage",
    auth: "token",
    errors: "openai",
  },
  {
    method: "post",
    path: "/v1/messages",
    tag: "Anthropic",
    summary: "Anthropic Messages, to any channel's format",
    auth: "token",
    errors: "anthropic",
    body: { schema: anthropicMessagesRequest },
    stream: true,
  },
  {
    method: "post",
    path: "/v1/messages/count_tokens",
    tag: "Anthropic",
    summary: "Anthropic's token count of a Messages request (max_tokens may be left out); nothing billed",
    auth: "token",
    errors: "anthropic",
    body: { schema: anthropicMessagesRequest },
  },
  { method: "get", path: "/v1beta/models", tag: "Gemini", summary: "The models the key may use, in Gemini's shape", auth: "token", errors: "gemini" },
  {
    method: "get",
    path: "/v1beta/models/{model}",
    tag: "Gemini",
    summary: "One model, in Gemini's shape",
    auth: "token",
    errors: "gemini",
    params: { model: str },
  },
  ...(["generateContent", "streamGenerateContent"] as const).map((action): RelayOperation => ({
    method: "post",
    path: `/v1beta/models/{model}:${action}`,
    tag: "Gemini",
    summary:
      action === "generateContent" ? "Gemini generateContent, to any channel's format" : "Gemini streamGenerateContent (?alt=sse for server-sent events)",
    auth: "token",
    errors: "gemini",
    body: { schema: geminiRequest },
    stream: action === "streamGenerateContent",
    params: { model: str },
  })),
  {
    method: "post",
    path: "/v1beta/models/{model}:embedContent",
    tag: "Gemini",
    summary: "Gemini embedContent",
    auth: "token",
    errors: "gemini",
    body: { schema: embedContentRequest },
    params: { model: str },
  },
  {
    method: "post",
    path: "/v1beta/models/{model}:batchEmbedContents",
    tag: "Gemini",
    summary: "Gemini batchEmbedContents",
    auth: "token",
    errors: "gemini",
    body: { schema: batchEmbedContentsRequest },
    params: { model: str },
  },
  {
    method: "post",
    path: "/pg/chat/completions",
    tag: "Playground",
    summary: "The console playground's Chat Completions, billed to the signed-in user",
    auth: "session",
    errors: "openai",
    body: { schema: openaiChatRequest },
    stream: true,
  },
  // the task relay (docs/tasks.md)
  {
    method: "post",
    path: "/mj/submit/{action}",
    tag: "Midjourney",
    summary: "Submit a Midjourney task (DrawingEnabled); priced per action",
    auth: "token",
    errors: "midjourney",
    body: { json: anyObject },
    params: { action: { type: "string", enum: [...MJ_SUBMIT_KINDS] } },
  },
  {
    method: "get",
    path: "/mj/task/{id}/fetch",
    tag: "Midjourney",
    summary: "One of the token's Midjourney tasks",
    auth: "token",
    errors: "midjourney",
    params: { id: str },
  },
  {
    method: "post",
    path: "/mj/task/list-by-condition",
    tag: "Midjourney",
    summary: "The token's Midjourney tasks by id ({ids: [...]})",
    auth: "token",
    errors: "midjourney",
    body: { json: { type: "object", properties: { ids: { type: "array", items: str } }, additionalProperties: true } },
  },
  {
    method: "get",
    path: "/mj/image/{id}",
    tag: "Midjourney",
    summary: "A task's image through the gateway (MjForwardUrlEnabled); no key",
    auth: "public",
    errors: "midjourney",
    params: { id: str },
    produces: "image/*",
  },
  {
    method: "post",
    path: "/mj/notify/{task}/{signature}",
    tag: "Midjourney",
    summary: "The Midjourney proxy's callback for one task, signed per task; no key",
    auth: "mj-callback",
    errors: "midjourney",
    body: { json: anyObject },
    params: { task: str, signature: str },
  },
  {
    method: "post",
    path: "/suno/submit/{action}",
    tag: "Suno",
    summary: "Submit a Suno task (TaskEnabled)",
    auth: "token",
    errors: "suno",
    body: { json: anyObject },
    params: { action: { type: "string", enum: ["music", "lyrics"] } },
  },
  {
    method: "post",
    path: "/suno/fetch",
    tag: "Suno",
    summary: "The token's Suno tasks by id ({ids: [...]})",
    auth: "token",
    errors: "suno",
    body: { json: { type: "object", properties: { ids: { type: "array", items: str } }, additionalProperties: true } },
  },
  { method: "get", path: "/suno/fetch/{id}", tag: "Suno", summary: "One of the token's Suno tasks", auth: "token", errors: "suno", params: { id: str } },
  {
    method: "post",
    path: "/v1/videos",
    tag: "Videos",
    summary: "Submit a video task (TaskEnabled); JSON or multipart with an input reference",
    auth: "token",
    errors: "openai",
    body: { json: passthroughBody },
  },
  { method: "get", path: "/v1/videos/{id}", tag: "Videos", summary: "One of the token's video tasks", auth: "token", errors: "openai", params: { id: str } },
  {
    method: "get",
    path: "/v1/videos/{id}/content",
    tag: "Videos",
    summary: "A finished video's file, through the gateway",
    auth: "token",
    errors: "openai",
    params: { id: str },
    produces: "video/mp4",
  },
];

const ERROR_SCHEMAS: Record<ErrorShape, JsonSchema> = {
  openai: {
    type: "object",
    required: ["error"],
    properties: { error: { type: "object", properties: { message: str, type: str, code: { type: ["string", "null"] } } } },
  },
  anthropic: {
    type: "object",
    required: ["type", "error"],
    properties: { type: { const: "error" }, error: { type: "object", properties: { type: str, message: str } } },
  },
  gemini: {
    type: "object",
    required: ["error"],
    properties: { error: { type: "object", properties: { code: { type: "integer" }, message: str, status: str } } },
  },
  midjourney: { type: "object", properties: { code: { type: "integer" }, description: str, result: {} } },
  suno: { type: "object", properties: { code: str, message: str, data: {} } },
};

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  token: [{ bearer: [] }, { anthropicKey: [] }, { googKey: [] }, { keyQuery: [] }, { mjSecret: [] }],
  session: [{ session: [] }],
  public: [],
  "mj-callback": [],
};

const opId = (method: string, path: string) =>
  method +
  path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

export function relayDocument(version: string): JsonSchema {
  const bag = new SchemaBag();
  const paths = dict<Record<string, unknown>>();
  for (const op of RELAY_OPERATIONS) {
    const parameters = [
      ...Object.entries(op.params ?? {}).map(([name, schema]) => ({ name, in: "path", required: true, schema })),
      ...Object.entries(op.query ?? {}).map(([name, schema]) => ({ name, in: "query", required: false, schema })),
      { $ref: "#/components/parameters/RequestId" },
    ];
    const id = opId(op.method, op.path);
    let requestBody: unknown;
    if (op.body && "schema" in op.body) requestBody = { required: true, content: { "application/json": { schema: bag.convert(op.body.schema, id) } } };
    else if (op.body && "json" in op.body) requestBody = { required: true, content: { "application/json": { schema: op.body.json } } };
    else if (op.body) requestBody = { required: true, content: { "multipart/form-data": { schema: op.body.multipart } } };
    const ok: Record<string, unknown> = { [op.produces ?? "application/json"]: op.produces ? {} : { schema: anyObject } };
    if (op.stream) ok["text/event-stream"] = { schema: str };
    const headers = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };
    const error = { description: "Refused", headers, content: { "application/json": { schema: { $ref: `#/components/schemas/Error_${op.errors}` } } } };
    paths[op.path] ??= dict();
    paths[op.path][op.method] = {
      operationId: id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      "x-auth": op.auth,
      security: SECURITY[op.auth],
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: {
        "200": { description: op.stream ? "The answer, or server-sent events for a stream" : "The answer", headers, content: ok },
        "400": error,
        ...(op.auth === "token" || op.auth === "session" ? { "401": error, "403": error } : {}),
        "404": error,
        // a rate limit, or a usage limit of the token or user with Retry-After (docs/usage-limits.md)
        ...(op.auth === "token"
          ? {
              "429": {
                description: "A rate limit or usage limit (docs/usage-limits.md): the message names the limit and when it frees",
                headers: Object.assign(
                  { "Retry-After": { description: "Seconds until the call may fit (usage limits)", schema: { type: "integer" } } },
                  headers,
                ),
                content: error.content,
              },
            }
          : {}),
      },
    };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "AI Gateway relay API",
      version,
      description:
        "OpenAI-, Anthropic- and Gemini-compatible endpoints and the task relay (Midjourney, Suno, videos). " +
        "Each family answers and refuses in its own protocol's shape. A token (sk-...) goes in whichever header its clients use.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(RELAY_OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer sk-... (OpenAI clients)" },
        anthropicKey: { type: "apiKey", in: "header", name: "x-api-key", description: "Anthropic clients" },
        googKey: { type: "apiKey", in: "header", name: "x-goog-api-key", description: "Gemini clients" },
        keyQuery: { type: "apiKey", in: "query", name: "key", description: "Gemini clients (?key=)" },
        mjSecret: { type: "apiKey", in: "header", name: "mj-api-secret", description: "Midjourney-proxy clients (/mj only)" },
        session: { type: "apiKey", in: "cookie", name: "session", description: "The console's session (the playground)" },
      },
      // docs/operations.md, "Request ids"
      parameters: {
        RequestId: {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description: "The call's id, kept when it is 1 to 128 of A-Z a-z 0-9 _ . : + = / - (else the gateway makes one)",
          schema: { type: "string", pattern: "^[A-Za-z0-9_.:+=/-]{1,128}$" },
        },
      },
      headers: {
        RequestId: {
          description:
            "The call's id: the client's X-Request-Id, or a UUID version 7 made by the gateway. Error messages end with \" (request id: ID)\"; the usage log's row carries it.",
          schema: { type: "string" },
        },
      },
      schemas: {
        ...Object.fromEntries(Object.entries(ERROR_SCHEMAS).map(([k, v]) => [`Error_${k}`, v])),
        ...bag.components,
      },
    },
  };
}

// Built once per process: GET /v1/openapi.json answers this string.
let cached: string | null = null;
export function relayDocumentJson(version: string): string {
  cached ??= JSON.stringify(relayDocument(version));
  return cached;
}

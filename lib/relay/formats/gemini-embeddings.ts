// Ingress format: Gemini embeddings, POST /v1beta/models/{model}:embedContent (one content,
// answered {embedding:{values}}) and :batchEmbedContents ({requests:[...]}, answered
// {embeddings:[{values}]}; what @google/genai's models.embedContent sends). As for
// generateContent, the model comes from the URL. Text parts only: Gemini's embedding models
// count only parts.text, and the other providers' embeddings take text.
import "server-only";
import { z } from "zod";
import { RelayError, type EmbedInput, type EmbeddingRequest } from "@/lib/relay/types";
import { MAX_EMBED_INPUTS, zodToRelayError } from "./types";

// Google's JSON mapping reads proto field names too (its own REST samples send task_type and
// output_dimensionality), so both spellings are accepted.
const taskType = z.string().regex(/^[A-Z_]{1,64}$/, "a task type such as RETRIEVAL_QUERY");
const dimensions = z.number().int().min(1).max(65_536);
const embedContentRequest = z.looseObject({
  model: z.string().optional(),
  content: z.looseObject({
    role: z.string().optional(),
    parts: z.array(z.looseObject({ text: z.string({ error: "only text parts can be embedded" }) })).min(1),
  }),
  taskType: taskType.optional(),
  task_type: taskType.optional(),
  title: z.string().optional(),
  outputDimensionality: dimensions.optional(),
  output_dimensionality: dimensions.optional(),
});
const batchEmbedContentsRequest = z.looseObject({ requests: z.array(embedContentRequest).min(1).max(MAX_EMBED_INPUTS) });

type EmbedContentRequest = z.infer<typeof embedContentRequest>;

function inputOf(r: EmbedContentRequest, where: string, model: string): EmbedInput {
  // Gemini refuses a request that names another model than the URL's; so does the relay,
  // which bills and routes by the URL's model.
  if (r.model !== undefined && r.model !== `models/${model}` && r.model !== model)
    throw new RelayError(
      400,
      `Invalid request: ${where}model: ${r.model} is not the model of the URL (models/${model})`,
      "invalid_request_error",
      "invalid_request",
    );
  const input: EmbedInput = { parts: r.content.parts.map((p) => p.text) };
  const task = r.taskType ?? r.task_type;
  if (task) input.taskType = task;
  if (r.title) input.title = r.title;
  const dims = r.outputDimensionality ?? r.output_dimensionality;
  if (dims) input.dimensions = dims;
  return input;
}

export function parseGeminiEmbeddings(body: unknown, ctx: { model: string; single: boolean }): EmbeddingRequest {
  if (!ctx.model) throw new RelayError(400, "Invalid request: the model is missing from the URL", "invalid_request_error", "invalid_request");
  let inputs: EmbedInput[];
  if (ctx.single) {
    const r = embedContentRequest.safeParse(body);
    if (!r.success) throw zodToRelayError(r.error, "request");
    inputs = [inputOf(r.data, "", ctx.model)];
  } else {
    const r = batchEmbedContentsRequest.safeParse(body);
    if (!r.success) throw zodToRelayError(r.error, "request");
    inputs = r.data.requests.map((q, i) => inputOf(q, `requests.${i}.`, ctx.model));
  }
  return { kind: "embeddings", model: ctx.model, inputs, single: ctx.single };
}

export function renderGeminiEmbeddings(vectors: number[][], single: boolean): string {
  return JSON.stringify(single ? { embedding: { values: vectors[0] } } : { embeddings: vectors.map((values) => ({ values })) });
}

// The request schemas, also read by the relay's OpenAPI document (docs/api-reference.md).
export { embedContentRequest, batchEmbedContentsRequest };

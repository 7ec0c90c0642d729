// The ingress formats by name.
import "server-only";
import { anthropicMessages } from "./anthropic-messages";
import { gemini } from "./gemini";
import { openaiChat } from "./openai-chat";
import { openaiResponses } from "./openai-responses";
import type { IngressFormat, IngressName } from "./types";

export const formats: Record<IngressName, IngressFormat> = {
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  "anthropic-messages": anthropicMessages,
  gemini,
};

export { parseGeminiPath } from "./gemini";
export { checkPassthroughParams } from "./passthrough";
export { parseGeminiEmbeddings, renderGeminiEmbeddings } from "./gemini-embeddings";
export type { IngressFormat, IngressName, ParseContext, StreamRenderer } from "./types";
export { MAX_EMBED_INPUTS, MAX_N } from "./types";

// Channel type → adapter. The only place that knows which wire a channel type speaks.
import "server-only";
import { CHANNEL_TYPE } from "@/lib/channels/channel-types";
import { anthropic } from "./anthropic";
import { baidu } from "./baidu";
import { bedrock } from "./bedrock";
import { cohere } from "./cohere";
import { gemini } from "./gemini";
import { azure, OPENAI_HOSTS, openaiCompatible } from "./openai";
import { tencent } from "./tencent";
import type { ProviderAdapter } from "./types";
import { vertex } from "./vertex";

// The type ids live with their names in lib/channels/channel-types.ts.
export { CHANNEL_TYPE };

const adapters = new Map<number, ProviderAdapter>();
for (const host of OPENAI_HOSTS) adapters.set(host.type, openaiCompatible(host));
adapters.set(CHANNEL_TYPE.AZURE, azure);
adapters.set(CHANNEL_TYPE.ANTHROPIC, anthropic);
adapters.set(CHANNEL_TYPE.GEMINI, gemini);
adapters.set(CHANNEL_TYPE.AWS_CLAUDE, bedrock);
adapters.set(CHANNEL_TYPE.VERTEX_AI, vertex);
adapters.set(CHANNEL_TYPE.BAIDU, baidu);
adapters.set(CHANNEL_TYPE.TENCENT, tencent);
adapters.set(CHANNEL_TYPE.COHERE, cohere);

/** The adapter for a channel type, or undefined when the relay cannot call that type. */
export function adapterFor(type: number): ProviderAdapter | undefined {
  return adapters.get(type);
}

export function supportedChannelTypes(): number[] {
  return [...adapters.keys()].sort((a, b) => a - b);
}

/** Whether a channel of this type can make embeddings (Anthropic's wire has none). */
export function servesEmbeddings(type: number): boolean {
  return adapters.get(type)?.embeddings !== undefined;
}

/** Whether a channel of this type serves /v1/rerank (Cohere, Jina, SiliconFlow, Xinference, custom hosts; not OpenAI). */
export function servesRerank(type: number): boolean {
  return adapters.get(type)?.supports.passthrough.includes("rerank") === true;
}

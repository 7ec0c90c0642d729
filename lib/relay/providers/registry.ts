// Channel type → adapter. The only place that knows which wire a channel type speaks.
import { anthropic } from "./anthropic";
import { gemini } from "./gemini";
import { azure, OPENAI_WIRE_TYPES, openaiCompatible } from "./openai";
import type { ProviderAdapter } from "./types";

export const CHANNEL_TYPE = {
  OPENAI: 1,
  AZURE: 3,
  OLLAMA: 4,
  CUSTOM: 8,
  ANTHROPIC: 14,
  OPENROUTER: 20,
  GEMINI: 24,
  MOONSHOT: 25,
  PERPLEXITY: 27,
  SILICONFLOW: 40,
  MISTRAL: 42,
  DEEPSEEK: 43,
  XAI: 48,
} as const;

const adapters = new Map<number, ProviderAdapter>();
for (const t of OPENAI_WIRE_TYPES) adapters.set(t, openaiCompatible(t));
adapters.set(CHANNEL_TYPE.AZURE, azure);
adapters.set(CHANNEL_TYPE.ANTHROPIC, anthropic);
adapters.set(CHANNEL_TYPE.GEMINI, gemini);

/** The adapter for a channel type, or undefined when the relay cannot call that type. */
export function adapterFor(type: number): ProviderAdapter | undefined {
  return adapters.get(type);
}

export function supportedChannelTypes(): number[] {
  return [...adapters.keys()].sort((a, b) => a - b);
}

// The one list of channel types (new-api numbering) and their names. Pure data with no
// imports: the server (validation of `type`, GET /api/models, the relay's adapter registry)
// and the console's client components all read it from here.
export const CHANNEL_TYPE = {
  OPENAI: 1,
  MIDJOURNEY_PROXY: 2, // the task relay (docs/tasks.md)
  AZURE: 3,
  OLLAMA: 4,
  CUSTOM: 8,
  ANTHROPIC: 14,
  BAIDU: 15,
  ALI: 17,
  XUNFEI: 18,
  OPENROUTER: 20,
  FASTGPT: 22,
  TENCENT: 23,
  GEMINI: 24,
  MOONSHOT: 25,
  ZHIPU_V4: 26,
  PERPLEXITY: 27,
  AWS_CLAUDE: 33, // AWS Bedrock (every Bedrock model, Claude included)
  COHERE: 34,
  MINIMAX: 35,
  SUNO: 36, // the task relay (docs/tasks.md)
  JINA: 38,
  CLOUDFLARE: 39,
  SILICONFLOW: 40,
  VERTEX_AI: 41,
  MISTRAL: 42,
  DEEPSEEK: 43,
  VOLCENGINE: 45,
  BAIDU_V2: 46,
  XINFERENCE: 47,
  XAI: 48,
} as const;

export type ChannelTypeId = (typeof CHANNEL_TYPE)[keyof typeof CHANNEL_TYPE];

// In the order the console offers them (by id).
export const CHANNEL_TYPES: ReadonlyArray<{ id: ChannelTypeId; name: string }> = [
  { id: CHANNEL_TYPE.OPENAI, name: "OpenAI" },
  { id: CHANNEL_TYPE.MIDJOURNEY_PROXY, name: "Midjourney Proxy" },
  { id: CHANNEL_TYPE.AZURE, name: "Azure OpenAI" },
  { id: CHANNEL_TYPE.OLLAMA, name: "Ollama" },
  { id: CHANNEL_TYPE.CUSTOM, name: "Custom" },
  { id: CHANNEL_TYPE.ANTHROPIC, name: "Anthropic Claude" },
  { id: CHANNEL_TYPE.BAIDU, name: "Baidu" },
  { id: CHANNEL_TYPE.ALI, name: "Ali" },
  { id: CHANNEL_TYPE.XUNFEI, name: "Xunfei" },
  { id: CHANNEL_TYPE.OPENROUTER, name: "OpenRouter" },
  { id: CHANNEL_TYPE.FASTGPT, name: "FastGPT" },
  { id: CHANNEL_TYPE.TENCENT, name: "Tencent" },
  { id: CHANNEL_TYPE.GEMINI, name: "Google Gemini" },
  { id: CHANNEL_TYPE.MOONSHOT, name: "Moonshot" },
  { id: CHANNEL_TYPE.ZHIPU_V4, name: "Zhipu GLM" },
  { id: CHANNEL_TYPE.PERPLEXITY, name: "Perplexity" },
  { id: CHANNEL_TYPE.AWS_CLAUDE, name: "AWS Bedrock" },
  { id: CHANNEL_TYPE.COHERE, name: "Cohere" },
  { id: CHANNEL_TYPE.MINIMAX, name: "MiniMax" },
  { id: CHANNEL_TYPE.SUNO, name: "Suno API" },
  { id: CHANNEL_TYPE.JINA, name: "Jina" },
  { id: CHANNEL_TYPE.CLOUDFLARE, name: "Cloudflare Workers AI" },
  { id: CHANNEL_TYPE.SILICONFLOW, name: "SiliconFlow" },
  { id: CHANNEL_TYPE.VERTEX_AI, name: "Vertex AI" },
  { id: CHANNEL_TYPE.MISTRAL, name: "Mistral" },
  { id: CHANNEL_TYPE.DEEPSEEK, name: "DeepSeek" },
  { id: CHANNEL_TYPE.VOLCENGINE, name: "VolcEngine (Doubao)" },
  { id: CHANNEL_TYPE.BAIDU_V2, name: "Baidu Qianfan V2" },
  { id: CHANNEL_TYPE.XINFERENCE, name: "Xinference" },
  { id: CHANNEL_TYPE.XAI, name: "xAI" },
];

export const CHANNEL_TYPE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(CHANNEL_TYPES.map((t) => [t.id, t.name]));

export function isChannelType(type: number): type is ChannelTypeId {
  return Object.prototype.hasOwnProperty.call(CHANNEL_TYPE_NAMES, type);
}

// A stored channel of an id this list does not know (an older or newer database) is still
// shown, as "#id".
export function channelTypeName(type: number | null | undefined): string {
  if (type === null || type === undefined) return "";
  return CHANNEL_TYPE_NAMES[type] ?? `#${type}`;
}

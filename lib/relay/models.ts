// GET /v1/models and GET /v1beta/models: the models this token may use — those served by an
// enabled channel in the token's group, and the virtual models with at least one actual model
// among them (docs/relay.md, "Virtual models"), narrowed to the token's model limits when it
// has them — in the OpenAI, Anthropic (a client that sends `anthropic-version`) or Gemini list
// shape; GET /v1/models/{model} and GET /v1beta/models/{model}: one of them, in the same shapes
// (null when the token may not use it: the caller answers 404 in the client's format).
import "server-only";
import type { IngressName } from "@/lib/relay/formats";
import { enabledModels } from "@/lib/channels/channel-cache";
import type { TokenContext } from "@/lib/relay/token-cache";
import { withVirtualModels } from "@/lib/relay/virtual-models";

const CREATED = 1_700_000_000; // a fixed timestamp: OpenAI's list carries one per model
const CREATED_AT = new Date(CREATED * 1000).toISOString(); // Anthropic's, as RFC 3339

async function usableModels(ctx: TokenContext): Promise<string[]> {
  let models = withVirtualModels(await enabledModels([ctx.group]));
  if (ctx.token.model_limits_enabled) {
    const allowed = new Set(ctx.token.model_limits);
    models = models.filter((m) => allowed.has(m));
  }
  return models;
}

const geminiModel = (m: string) => ({
  name: `models/${m}`,
  displayName: m,
  // by name, as model lists go: an embedding model does not chat
  supportedGenerationMethods: /embed/i.test(m) ? ["embedContent", "batchEmbedContents"] : ["generateContent", "streamGenerateContent"],
});
const anthropicModel = (id: string) => ({ type: "model", id, display_name: id, created_at: CREATED_AT });
const openaiModel = (id: string) => ({ id, object: "model", created: CREATED, owned_by: "ai-gateway" });

export async function listModels(ingress: IngressName, ctx: TokenContext): Promise<string> {
  const models = await usableModels(ctx);
  if (ingress === "gemini") return JSON.stringify({ models: models.map(geminiModel) });
  if (ingress === "anthropic-messages")
    return JSON.stringify({ data: models.map(anthropicModel), has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null });
  return JSON.stringify({ object: "list", data: models.map(openaiModel) });
}

export async function describeModel(ingress: IngressName, ctx: TokenContext, model: string): Promise<string | null> {
  // a Gemini client may write the name with its "models/" prefix
  const name = ingress === "gemini" && model.startsWith("models/") ? model.slice("models/".length) : model;
  if (!(await usableModels(ctx)).includes(name)) return null;
  if (ingress === "gemini") return JSON.stringify(geminiModel(name));
  if (ingress === "anthropic-messages") return JSON.stringify(anthropicModel(name));
  return JSON.stringify(openaiModel(name));
}

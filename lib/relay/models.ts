// GET /v1/models and GET /v1beta/models: the models this token may use — those served by an
// enabled channel in the token's group, and the virtual models with at least one actual model
// among them (docs/relay.md, "Virtual models"), narrowed to the token's model limits when it
// has them — in the OpenAI or the Gemini list shape.
import "server-only";
import type { IngressName } from "@/lib/relay/formats";
import { enabledModels } from "@/lib/channels/channel-cache";
import type { TokenContext } from "@/lib/relay/token-cache";
import { withVirtualModels } from "@/lib/relay/virtual-models";

const CREATED = 1_700_000_000; // a fixed timestamp: OpenAI's list carries one per model

export async function listModels(ingress: IngressName, ctx: TokenContext): Promise<string> {
  let models = withVirtualModels(await enabledModels([ctx.group]));
  if (ctx.token.model_limits_enabled) {
    const allowed = new Set(ctx.token.model_limits);
    models = models.filter((m) => allowed.has(m));
  }
  if (ingress === "gemini") {
    return JSON.stringify({
      models: models.map((m) => ({
        name: `models/${m}`,
        displayName: m,
        // by name, as model lists go: an embedding model does not chat
        supportedGenerationMethods: /embed/i.test(m) ? ["embedContent", "batchEmbedContents"] : ["generateContent", "streamGenerateContent"],
      })),
    });
  }
  return JSON.stringify({
    object: "list",
    data: models.map((id) => ({ id, object: "model", created: CREATED, owned_by: "ai-gateway" })),
  });
}

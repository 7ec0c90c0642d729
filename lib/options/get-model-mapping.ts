// The model mapping as the relay uses it (the option model_mapping, from this node's cache):
// virtual model name -> [{model, priorities}] in the stored order (docs/relay.md, "Virtual models").
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import type { ModelMapping } from "@/lib/model-mapping/schema";
import { getOption } from "@/lib/options/store";

// A stored text that is not a JSON object (edited outside the console) reads as no mapping,
// as the relay reads it.
export function storedMapping(text: string): ModelMapping {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as ModelMapping;
  } catch {
    // below
  }
  return {};
}

export async function getModelMapping(_args: { ctx: UserCtx }): Promise<{ mapping: ModelMapping }> {
  return { mapping: storedMapping(getOption("model_mapping")) };
}

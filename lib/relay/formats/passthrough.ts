// The numeric parameters of a pass-through body (/v1/completions, /v1/embeddings,
// /v1/images/generations, /v1/audio/speech, /v1/moderations, /v1/rerank): the body goes
// upstream as the client wrote it, but its budget and choices size the reservation and bound
// the usage billed (docs/channels-tokens-billing.md, "Bounds of one call"), so they are
// checked as the chat route checks its own (openai-chat.ts). A bad value answers 400 naming
// the parameter before anything is reserved.
import "server-only";
import { z } from "zod";
import { dropUnsetBudgets, MAX_N, outputBudget, zodToRelayError } from "./types";

const count = z.number().int().min(1).max(MAX_N).nullable().optional();
const penalty = z.number().min(-2).max(2).nullable().optional();
const schema = z.looseObject({
  max_tokens: outputBudget.nullable().optional(),
  max_completion_tokens: outputBudget.nullable().optional(),
  max_output_tokens: outputBudget.nullable().optional(),
  n: count,
  best_of: count,
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  presence_penalty: penalty,
  frequency_penalty: penalty,
  top_n: z.number().int().min(1).nullable().optional(),
  dimensions: z.number().int().min(1).nullable().optional(),
});

const BUDGETS = ["max_tokens", "max_completion_tokens", "max_output_tokens"] as const;

/** Drops a budget of 0 (not set), then checks a pass-through body's numeric parameters (throws RelayError 400). */
export function checkPassthroughParams(body: Record<string, unknown>): void {
  dropUnsetBudgets(body, BUDGETS);
  const r = schema.safeParse(body);
  if (!r.success) throw zodToRelayError(r.error, "request");
}

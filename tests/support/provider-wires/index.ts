// Every provider wire the providers test calls: one module per family of wires, each listing
// its ProviderWire rows (tests/support/provider-wires/types.ts).
import { CN_WIRES } from "./cn";
import { CLOUD_WIRES } from "./cloud";
import { FIRST_PARTY_WIRES } from "./first-party";
import { OPENAI_HOST_WIRES } from "./openai-hosts";
import { RERANK_FAMILY_WIRES } from "./rerank-family";
import type { ProviderWire } from "./types";

export const PROVIDER_WIRES: ProviderWire[] = [...OPENAI_HOST_WIRES, ...FIRST_PARTY_WIRES, ...CLOUD_WIRES, ...RERANK_FAMILY_WIRES, ...CN_WIRES];

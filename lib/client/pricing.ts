// GET /api/pricing as the browser reads it (docs/product-rules.md, "Pricing"): the pricing
// page's table and the playground's cost of a reply share one fetch (one SWR key).
import { api } from "@/lib/client/api";

export type PricingRow = {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  enable_groups: string[];
  price_set?: boolean;
};
export type Pricing = { data: PricingRow[]; group_ratio: Record<string, number>; usable_group: Record<string, string>; group?: string };

export const PRICING_PATH = "/api/pricing";

// The envelope's extra fields (group_ratio, usable_group) sit beside data, so the whole answer is kept.
export const fetchPricing = async (path: string): Promise<Pricing> => (await api.get<PricingRow[]>(path)) as unknown as Pricing;

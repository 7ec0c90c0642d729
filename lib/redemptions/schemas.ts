// Input of the redemption calls (new-api field names): the shared rules of lib/redemptions/field-rules.ts.
import "server-only";
export {
  batchIdsBody,
  createRedemptionBody,
  redeemBody,
  updateRedemptionBody,
  type CreateRedemptionInput,
  type UpdateRedemptionInput,
} from "@/lib/redemptions/field-rules";

// Input of the token calls (new-api field names): the shared rules of lib/tokens/field-rules.ts.
import "server-only";
export { createTokenBody, tokenFields, updateTokenBody, type TokenFields } from "@/lib/tokens/field-rules";

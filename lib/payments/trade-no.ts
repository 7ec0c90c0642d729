// Trade numbers: unique per order (a unique index holds it), unguessable, and short enough
// for every provider (epay takes up to 64 characters, Stripe's client_reference_id 200).
import "server-only";
import { randomBytes } from "node:crypto";

export function newTradeNo(userId: number): string {
  return `USR${userId}NO${Date.now().toString(36).toUpperCase()}${randomBytes(8).toString("hex").toUpperCase()}`;
}

// Database error helpers. Prisma reports a unique-constraint violation as P2002 on both
// providers (through the driver adapters too).
import "server-only";
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

// JSON for responses: BigInt columns (quota, unix seconds) become numbers. They stay far
// below 2^53 (that would be 18 billion dollars of quota), which is checked, not assumed.
import "server-only";

export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error("integer out of the safe JSON range");
    return n;
  }
  return value;
}

export function toJson(value: unknown): string {
  return JSON.stringify(value, jsonReplacer);
}

// A client-side check's result is reported like a server refusal: "Error: message".
import { toast } from "@/lib/client/toast";
import type { ValidationKey } from "@/lib/client/validation";

export function reportInvalid(key: ValidationKey, values?: Record<string, string | number>): void {
  toast.error({ key: `validation.${key}`, values });
}

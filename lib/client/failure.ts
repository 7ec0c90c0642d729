// The text of a failed call made with { quiet: true }, for places that show it themselves
// (the model test panel, the test buttons): the server's message, else the catalogue's
// text with the HTTP status (a missing endpoint answers 404 without an envelope).
import { ApiError } from "@/lib/client/api";

export function failureText(err: unknown, errorText: (key: string) => string): string {
  if (err instanceof ApiError) {
    const f = err.failure;
    if (f.kind === "message") return f.text;
    if (f.kind === "expired") return errorText("sessionExpired");
    return err.status ? `${errorText(f.key)} (HTTP ${err.status})` : errorText(f.key);
  }
  return err instanceof Error ? err.message : String(err);
}

// Whether a failed test is worth retrying: network errors, 429 and 5xx, and upstream
// refusals the server reports (often transient). A missing endpoint (404) is not.
export function isRetryableFailure(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  if (err.failure.kind === "message") return true;
  return err.status === 0 || err.status === 429 || err.status >= 500;
}

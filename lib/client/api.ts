// The one browser-side helper for console /api calls. It names the caller in the
// New-Api-User header, reads the {success, message, data} envelope and applies the error
// catalogue once (lib/client/errors.ts): a failed call has already been reported to the
// person when the returned promise rejects with ApiError.
import { CHALLENGE_HEADER, classifyResponse, expiredLoginUrl, isChallenge, type Failure } from "@/lib/client/errors";
import { clearLocalUser, getLocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";

export type Envelope<T = unknown> = { success: boolean; message: string; data: T };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly failure: Failure,
    readonly status: number,
    // The parsed answer, when there was one (a model test's isRetryable rides on it).
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const USER_HEADER = "New-Api-User";

export function requestHeaders(body: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  const user = getLocalUser();
  if (user) headers[USER_HEADER] = String(user.id);
  if (body) headers["content-type"] = "application/json";
  return headers;
}

// Applies the error catalogue to a failure (toast; a 401 logs out and goes to the login page).
// Exported for calls that cannot go through `call` (the playground's streamed chat).
export function reportFailure(failure: Failure) {
  if (failure.kind === "message") {
    toast.error({ key: "errors.prefixed", values: { message: failure.text } });
    return;
  }
  if (failure.kind === "catalogue") {
    toast.error({ key: `errors.${failure.key}` });
    return;
  }
  // 401: the session is gone. Forget the local user and log in again, then come back here.
  clearLocalUser();
  toast.error({ key: "errors.sessionExpired" });
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== "/login") window.location.assign(expiredLoginUrl(here));
}

// failed: a message key shown instead of the catalogue's "request failed" when the answer
// carries no message of its own (docs/console-ui.md, "One place reports failures").
type Options = { quiet?: boolean; signal?: AbortSignal; failed?: string };

async function call<T>(method: string, path: string, body?: unknown, options: Options = {}): Promise<Envelope<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: requestHeaders(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const failure: Failure = { kind: "catalogue", key: "network" };
    if (!options.quiet) reportFailure(failure);
    throw new ApiError("network", failure, 0);
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  const failure = classifyResponse(res.status, isChallenge(res.headers.get(CHALLENGE_HEADER)), envelope);
  if (failure) {
    // A 401 is always handled: the session is over whatever the caller wanted.
    if (options.failed && !options.quiet && failure.kind === "catalogue" && failure.key === "unknown") toast.error({ key: options.failed });
    else if (!options.quiet || failure.kind === "expired") reportFailure(failure);
    throw new ApiError(failure.kind === "message" ? failure.text : failure.kind, failure, res.status, envelope);
  }
  return envelope as Envelope<T>;
}

export const api = {
  get: <T>(path: string, options?: Options) => call<T>("GET", path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options?: Options) => call<T>("POST", path, body, options),
  put: <T>(path: string, body: unknown = {}, options?: Options) => call<T>("PUT", path, body, options),
  del: <T>(path: string, options?: Options) => call<T>("DELETE", path, undefined, options),
};

// SWR's fetcher: the data of the envelope.
export const fetchData = <T>(path: string): Promise<T> => api.get<T>(path).then((r) => r.data);

// The request id of a relay call (docs/operations.md, "Request ids"): the client's own
// X-Request-Id when it is a sane token, else one made here. It is sent back in the answer's
// X-Request-Id header, appended to the error messages the relay writes, written to the call's
// usage-log row and to the server log's lines about the call.
import "server-only";
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

// At most 128 characters of letters, digits and _ . : + = / - : enough for a UUID, a trace
// id or a base64 token, and nothing that needs escaping in a header, a JSON string or a log
// line. A header sent twice arrives joined with ", " and is refused like any other.
const SANE = /^[A-Za-z0-9_.:+=/-]{1,128}$/;

/** The client's id when it is sane, else undefined. */
export function clientRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === "string" && SANE.test(header) ? header : undefined;
}

/**
 * A new id: a random UUID (node's randomUUID draws from a cached entropy buffer; the id is
 * unique across nodes and restarts without coordination). The handler uses it as the
 * reservation's ledger ref too, so a call makes no more UUIDs than before.
 */
export const newRequestId = (): string => randomUUID();

/** new-api's form: the message, then " (request id: ID)". */
export const withRequestId = (message: string, requestId: string): string => `${message} (request id: ${requestId})`;

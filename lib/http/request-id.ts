// The request id of a relay call or a console request (docs/operations.md, "Request ids"):
// the client's own X-Request-Id when it is a sane token, else one made here. It is sent back
// in the answer's X-Request-Id header; on the relay it is appended to the error messages the
// relay writes, written to the call's usage-log row and to the server log's lines about the
// call; on the console it is the ctx's requestId (lib/http/route.ts), which the audit log's
// rows carry (docs/audit.md).
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
 * A new id: a UUID version 7 (RFC 9562): the time in ms in its first 48 bits, then 74 random
 * bits from node's randomUUID (drawn from a cached entropy buffer). Unique across nodes and
 * restarts without coordination, and time-ordered: the index on logs.request_id then grows
 * at its right edge, as the created_at index does. A random (version 4) id cost each log row
 * 30 to 60 µs more in SQLite's batch insert, on the event loop, once the table outgrew the
 * page cache (measured on this machine, docs/operations.md "Request ids"); a version 7 id
 * costs nothing measurable. The handler uses it as the reservation's ledger ref too, so a
 * call makes no more UUIDs than before.
 */
export function newRequestId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx
  const ms = Date.now().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${random.slice(15)}`;
}

/** new-api's form: the message, then " (request id: ID)". */
export const withRequestId = (message: string, requestId: string): string => `${message} (request id: ${requestId})`;

/** A console request's id: the one server.ts set in the request's header, else a new one. */
export function consoleRequestId(headers: Headers): string {
  return clientRequestId(headers.get(REQUEST_ID_HEADER) ?? undefined) ?? newRequestId();
}

// How a console request's span learns what only route() knows (docs/tracing.md, "Console
// requests"). server.ts and Next's compiled routes are separate bundles with separate module
// state: server.ts (through lib/tracing/sdk.ts) starts the span, files it under a slot number
// it writes into the request's TRACE_SLOT_HEADER (overwriting a client's copy), and puts a
// function on globalThis; route() (lib/http/route.ts) calls that function, when there is one,
// with the slot, the path's route (its parameters' values replaced by their [names]) and the
// signed-in user's id. With tracing off there is no function: route() reads one global and
// goes on.
import "server-only";

export const TRACE_SLOT_HEADER = "x-gateway-trace-slot";

export type ConsoleNote = (slot: string | null, pathname: string, params: unknown, userId: number | undefined) => void;

const holder = globalThis as unknown as { __gatewayConsoleTrace?: ConsoleNote };

/** The function route() calls, undefined while tracing is off. */
export function consoleNote(): ConsoleNote | undefined {
  return holder.__gatewayConsoleTrace;
}

export function setConsoleNote(note: ConsoleNote | undefined): void {
  holder.__gatewayConsoleTrace = note;
}

/**
 * A route of Next's app router from a path and its parameters: each segment equal to a
 * parameter's value becomes `[name]` (a catch-all's segments, `[...name]`), so that the spans
 * of /api/channel/5 and /api/channel/6 share the route /api/channel/[id].
 */
export function routeOf(pathname: string, params: unknown): string {
  if (!params || typeof params !== "object") return pathname;
  const entries = Object.entries(params as Record<string, unknown>);
  if (entries.length === 0) return pathname;
  const segments = pathname.split("/");
  for (const [name, value] of entries) {
    if (typeof value === "string") {
      const at = segments.findIndex((s, i) => i > 0 && safeDecode(s) === value);
      if (at !== -1) segments[at] = `[${name}]`;
    } else if (Array.isArray(value) && value.length > 0) {
      const first = segments.findIndex((s, i) => i > 0 && safeDecode(s) === value[0]);
      if (first !== -1) segments.splice(first, value.length, `[...${name}]`);
    }
  }
  return segments.join("/");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// Large relay bodies are parsed, and their upstream bodies serialised, on worker threads, so
// that one client's big body (a base64 image near the 32 MiB limit) does not hold every
// other client's call while JSON.parse and JSON.stringify walk its bytes (docs/limits.md).
// Bodies up to OFFLOAD_FROM bytes (nearly every call) never come here: their parse costs a
// few milliseconds at most, less than the round trip to a worker.
//
// Long strings (an image's base64, a long text) are the bulk of such a body, and copying
// them between threads by structured cloning cost the event loop as much as parsing them
// (13-40 ms for 30 MB, docs/limits.md). So each string of LIFT_FROM characters or more
// travels as its bytes in a SharedArrayBuffer (Latin-1 when every character fits in a byte,
// as base64 does; else UTF-16), never cloned:
// - parse: the worker takes it out of the parsed value (leaving null), counts its
//   quarter-tokens for the estimate (lib/relay/estimate.ts: counting 30 MB of text took
//   30-60 ms), and sends the shared bytes with its path; the main thread makes the string
//   once (toString: one copy into an external string) and puts it back, and keeps string →
//   bytes (LiftedStrings) for the call, with the data of a data: URL as a second entry;
// - serialise: any long string of the upstream body that is one of those strings (passed on
//   unchanged: an OpenAI upstream of an OpenAI client, a pass-through, a client's base64 to
//   its own wire, an OpenAI client's data: URL cut for Anthropic or Gemini) is sent as those
//   shared bytes again; the containers on its path are copied, the caller's objects are
//   never changed. A long string made anew (an Anthropic or Gemini client's base64 joined
//   into a data: URL for an OpenAI wire) is cloned: one copy on the event loop.
// The serialised upstream body comes back as UTF-8 bytes, transferred without a copy.
import "server-only";
import { Worker } from "node:worker_threads";
import { quarterTokens } from "@/lib/relay/estimate";

/** Bodies larger than this are parsed and re-serialised off the event loop. */
export const OFFLOAD_FROM = 1024 * 1024;

/** At most this many workers, started when first needed (the machine may have 2 cores). */
const MAX_WORKERS = 2;

/** Strings at least this long travel between threads as shared bytes. */
const LIFT_FROM = 256 * 1024;

/** The long strings of one parsed body, each with its bytes (shared with the workers). */
export type LiftedStrings = Map<string, Shared>;

export interface Shared {
  bytes: SharedArrayBuffer;
  /** where the string starts in the bytes */
  start: number;
  /** UTF-16 (a character past U+00FF in it), else Latin-1 */
  wide: boolean;
  /** its quarter-tokens for the estimate (lib/relay/estimate.ts), counted on the worker; -1: not counted */
  quarters: number;
}

// The prefix of a base64 data: URL; the ingress formats cut the data after it (lib/relay/formats).
const DATA_URL = /^data:[^;,]+;base64,/;

// Plain JavaScript run with `eval` so that the bundle (scripts/build-server.mjs) needs no
// second entry point. Walks are recursive: bodies this large were bounded to MAX_JSON_DEPTH
// levels while they arrived (lib/relay/body-bound.ts).
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const LIFT_FROM = ${LIFT_FROM};
const ONE_BYTE = /^[\\x00-\\xff]*$/;
const quarterTokens = ${quarterTokens.toString()};
function lift(v, path, lifted) {
  const keys = Array.isArray(v) ? null : Object.keys(v);
  const n = keys ? keys.length : v.length;
  for (let i = 0; i < n; i++) {
    const k = keys ? keys[i] : i;
    const x = v[k];
    if (typeof x === "string") {
      if (x.length < LIFT_FROM) continue;
      const wide = !ONE_BYTE.test(x);
      const bytes = new SharedArrayBuffer(wide ? 2 * x.length : x.length);
      Buffer.from(bytes).write(x, 0, wide ? "utf16le" : "latin1");
      lifted.push({ path: path.concat(k), bytes, start: 0, wide, quarters: quarterTokens(x) });
      v[k] = null;
    } else if (x !== null && typeof x === "object") {
      path.push(k);
      lift(x, path, lifted);
      path.pop();
    }
  }
}
function putBack(root, l) {
  let v = root;
  const last = l.path.length - 1;
  for (let i = 0; i < last; i++) v = v[l.path[i]];
  v[l.path[last]] = Buffer.from(l.bytes, l.start).toString(l.wide ? "utf16le" : "latin1");
}
parentPort.on("message", (m) => {
  if (m.op === "parse") {
    let value;
    let ok = true;
    const lifted = [];
    try {
      value = JSON.parse(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength).toString("utf8"));
      if (value !== null && typeof value === "object") lift(value, [], lifted);
    } catch {
      ok = false;
    }
    try {
      parentPort.postMessage({ id: m.id, ok, value, lifted });
    } catch {
      parentPort.postMessage({ id: m.id, ok: false, value: undefined });
    }
    return;
  }
  let bytes;
  try {
    const value = m.data.value;
    for (const l of m.data.lifted) putBack(value, l);
    const b = Buffer.from(JSON.stringify(value), "utf8");
    bytes = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
  } catch {
    parentPort.postMessage({ id: m.id, ok: false, value: undefined });
    return;
  }
  parentPort.postMessage({ id: m.id, ok: true, value: bytes }, [bytes.buffer]);
});
`;

// A long string of a body, as shared Latin-1 bytes, and where it is in the value.
interface Lifted extends Shared {
  path: (string | number)[];
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

const slots: Slot[] = [];
let nextId = 1;

// The long strings of a parse made again from their shared bytes and put back in place.
function putBack(value: unknown, lifted: Lifted[]): LiftedStrings {
  const strings: LiftedStrings = new Map();
  for (const l of lifted) {
    let v = value as Record<string | number, unknown>;
    const last = l.path.length - 1;
    for (let i = 0; i < last; i++) v = v[l.path[i]] as Record<string | number, unknown>;
    const s = Buffer.from(l.bytes).toString(l.wide ? "utf16le" : "latin1");
    v[l.path[last]] = s;
    strings.set(s, { bytes: l.bytes, start: 0, wide: l.wide, quarters: l.quarters });
    // the data of a data: URL, which an adapter may send alone (Anthropic, Gemini): a string
    // of the same text is found by the map (long strings hash by length; equal ones are
    // compared with memcmp, a few ms for 30 MB)
    const d = l.wide ? null : DATA_URL.exec(s);
    if (d) strings.set(s.slice(d[0].length), { bytes: l.bytes, start: d[0].length, wide: false, quarters: -1 });
  }
  return strings;
}

function start(): Slot {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const slot: Slot = { worker, pending: new Map() };
  // an idle worker must not keep the process alive (tests, scripts that import the relay)
  worker.unref();
  worker.on("message", (m: { id: number; ok: boolean; value: unknown; lifted?: Lifted[] }) => {
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    if (!m.ok) return p.reject(new OffThreadError());
    if (!m.lifted) return p.resolve(m.value);
    try {
      p.resolve({ value: m.value, strings: putBack(m.value, m.lifted) });
    } catch (e) {
      p.reject(e instanceof Error ? e : new OffThreadError());
    }
  });
  const fail = (err: unknown) => {
    const i = slots.indexOf(slot);
    if (i !== -1) slots.splice(i, 1);
    const e = err instanceof Error ? err : new Error(`json worker stopped (${String(err)})`);
    for (const p of slot.pending.values()) p.reject(e);
    slot.pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", fail);
  slots.push(slot);
  return slot;
}

// The least busy worker; another one is started while every one has work and the pool is not full.
function pick(): Slot {
  let best: Slot | undefined;
  for (const s of slots) if (!best || s.pending.size < best.pending.size) best = s;
  if (!best || (best.pending.size > 0 && slots.length < MAX_WORKERS)) return start();
  return best;
}

function send(op: "parse" | "serialize", data: unknown, transfer: ArrayBuffer[]): Promise<unknown> {
  const slot = pick();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    try {
      slot.worker.postMessage({ id, op, data }, transfer);
    } catch (e) {
      slot.pending.delete(id);
      reject(e instanceof Error ? e : new OffThreadError());
    }
  });
}

/** The worker could not parse (invalid JSON) or serialise the value. */
export class OffThreadError extends Error {
  constructor() {
    super("the JSON worker could not handle the value");
  }
}

/**
 * JSON.parse of the UTF-8 body, on a worker, with the body's long strings (LiftedStrings).
 * The body's memory is handed over (transferred) when the Buffer owns all of it, else copied
 * once: `body` must not be used afterwards. Rejects with OffThreadError on invalid JSON.
 */
export function parseOffThread(body: Buffer): Promise<{ value: unknown; strings: LiftedStrings }> {
  const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
  const bytes = own ? body : new Uint8Array(body);
  return send("parse", bytes, [bytes.buffer as ArrayBuffer]) as Promise<{ value: unknown; strings: LiftedStrings }>;
}

/** JSON.stringify of the value as UTF-8 bytes, on a worker; `strings`: the body's long strings (parseOffThread). */
export function serializeOffThread(value: unknown, strings: LiftedStrings): Promise<Uint8Array> {
  const lifted: Lifted[] = [];
  const data = strings.size && value !== null && typeof value === "object" ? swapOut(value as object, strings, [], lifted) : value;
  return send("serialize", { value: data, lifted }, []) as Promise<Uint8Array>;
}

// The value with each of `strings` found in it replaced by null (its path and bytes noted in
// `lifted`); containers on such a path are shallow copies, everything else is shared.
function swapOut(v: object, strings: LiftedStrings, path: (string | number)[], lifted: Lifted[]): object {
  const arr = Array.isArray(v) ? (v as unknown[]) : null;
  const rec = v as Record<string, unknown>;
  const keys = arr ? null : Object.keys(v);
  const n = keys ? keys.length : arr!.length;
  let copy: Record<string | number, unknown> | null = null;
  for (let i = 0; i < n; i++) {
    const k = keys ? keys[i] : i;
    const x = keys ? rec[k as string] : arr![i];
    let y = x;
    if (typeof x === "string") {
      const shared = x.length >= LIFT_FROM ? strings.get(x) : undefined;
      if (shared) {
        lifted.push({ path: path.concat(k), bytes: shared.bytes, start: shared.start, wide: shared.wide, quarters: shared.quarters });
        y = null;
      }
    } else if (x !== null && typeof x === "object") {
      path.push(k);
      y = swapOut(x, strings, path, lifted);
      path.pop();
    }
    if (y !== x) {
      copy ??= (arr ? arr.slice() : Object.assign({}, rec)) as Record<string | number, unknown>;
      copy[k] = y;
    }
  }
  return copy ?? v;
}

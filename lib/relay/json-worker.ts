// Large relay bodies are parsed, and their upstream bodies serialised, on worker threads, so
// that one client's big body (a base64 image near the 32 MiB limit) does not hold every
// other client's call while JSON.parse and JSON.stringify walk its bytes (docs/limits.md).
// Bodies up to OFFLOAD_FROM bytes (nearly every call) never come here: their parse costs a
// few milliseconds at most, less than the round trip to a worker.
//
// What the main thread still does for an offloaded body: join its chunks into one Buffer
// (handed to the worker without a copy), read the parsed value back (structured clone: a
// copy of each string, a few ms for 30 MB), and send the upstream body's value to the
// worker (another copy); the serialised bytes come back without a copy. Measured in
// docs/limits.md.
import { Worker } from "node:worker_threads";

/** Bodies larger than this are parsed and re-serialised off the event loop. */
export const OFFLOAD_FROM = 1024 * 1024;

/** At most this many workers, started when first needed (the machine may have 2 cores). */
const MAX_WORKERS = 2;

// Strings at least this long come back from a parse as Latin-1 bytes (below).
const LIFT_FROM = 256 * 1024;

// Plain JavaScript run with `eval` so that the bundle (scripts/build-server.mjs) needs no
// second entry point. A parse answers { ok, value, lifted }; a serialisation answers the
// UTF-8 bytes, their buffer transferred.
// Each string of LIFT_FROM characters or more whose characters all fit in one byte (base64,
// most text) is taken out of the parsed value (left null) and sent as its Latin-1 bytes, its
// buffer transferred, with its path: the main thread makes it a string again with
// toString("latin1") (an external string: one copy, about 2 ms for 30 MB), where structured
// cloning it took 13-22 ms of the event loop (docs/limits.md). The walk is recursive: bodies
// this large were bounded to MAX_JSON_DEPTH levels while they arrived (lib/relay/body-bound.ts).
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const LIFT_FROM = ${LIFT_FROM};
const ONE_BYTE = /^[\\x00-\\xff]*$/;
function lift(v, path, lifted, transfer) {
  const keys = Array.isArray(v) ? null : Object.keys(v);
  const n = keys ? keys.length : v.length;
  for (let i = 0; i < n; i++) {
    const k = keys ? keys[i] : i;
    const x = v[k];
    if (typeof x === "string") {
      if (x.length < LIFT_FROM || !ONE_BYTE.test(x)) continue;
      let b = Buffer.from(x, "latin1");
      if (b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) b = new Uint8Array(b);
      lifted.push({ path: path.concat(k), bytes: b });
      transfer.push(b.buffer);
      v[k] = null;
    } else if (x !== null && typeof x === "object") {
      path.push(k);
      lift(x, path, lifted, transfer);
      path.pop();
    }
  }
}
parentPort.on("message", (m) => {
  if (m.op === "parse") {
    let value;
    let ok = true;
    const lifted = [];
    const transfer = [];
    try {
      value = JSON.parse(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength).toString("utf8"));
      if (value !== null && typeof value === "object") lift(value, [], lifted, transfer);
    } catch {
      ok = false;
    }
    try {
      parentPort.postMessage({ id: m.id, ok, value, lifted }, transfer);
    } catch {
      parentPort.postMessage({ id: m.id, ok: false, value: undefined });
    }
    return;
  }
  let bytes;
  try {
    const b = Buffer.from(JSON.stringify(m.data), "utf8");
    bytes = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
  } catch {
    parentPort.postMessage({ id: m.id, ok: false, value: undefined });
    return;
  }
  parentPort.postMessage({ id: m.id, ok: true, value: bytes }, [bytes.buffer]);
});
`;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

// A long one-byte string of a parsed body, as its Latin-1 bytes, and where it was.
interface Lifted {
  path: (string | number)[];
  bytes: Uint8Array;
}

function putBack(root: unknown, l: Lifted): void {
  let v = root as Record<string | number, unknown>;
  const last = l.path.length - 1;
  for (let i = 0; i < last; i++) v = v[l.path[i]] as Record<string | number, unknown>;
  v[l.path[last]] = Buffer.from(l.bytes.buffer, l.bytes.byteOffset, l.bytes.byteLength).toString("latin1");
}

const slots: Slot[] = [];
let nextId = 1;

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
    if (m.lifted) for (const l of m.lifted) putBack(m.value, l);
    p.resolve(m.value);
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
 * JSON.parse of the UTF-8 body, on a worker. The body's memory is handed over (transferred)
 * when the Buffer owns all of it, else copied once: `body` must not be used afterwards.
 * Rejects with OffThreadError on invalid JSON.
 */
export function parseOffThread(body: Buffer): Promise<unknown> {
  const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
  const bytes = own ? body : new Uint8Array(body);
  return send("parse", bytes, [bytes.buffer as ArrayBuffer]);
}

/** JSON.stringify of the value as UTF-8 bytes, on a worker. */
export function serializeOffThread(value: unknown): Promise<Uint8Array> {
  return send("serialize", value, []) as Promise<Uint8Array>;
}

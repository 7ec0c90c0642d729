// Types of bench/wrk.mjs (plain JavaScript so that `npm run bench` needs no build step).
export type WrkReport = {
  threads: number | null;
  connections: number | null;
  requests: number;
  durationSeconds: number;
  requestsPerSec: number;
  latencyUs: {
    avg: number | null;
    stdev: number | null;
    max: number | null;
    p50: number;
    p75?: number;
    p90?: number;
    p99: number;
    [p: string]: number | null | undefined;
  };
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  non2xx3xx: number;
};
export function parseDuration(text: string): number;
export function parseWrk(text: string): WrkReport;
export function parseThreadRps(text: string): { avg: number; stdev: number; max: number } | null;
export function postScript(body: unknown, headers: Record<string, string>): string;

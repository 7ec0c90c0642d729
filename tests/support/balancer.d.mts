// Types of tests/support/balancer.mjs (plain JavaScript so that bench/cluster.mjs runs it without a build).
export type BalancerStats = {
  requests: number; // requests received from clients
  retried: number; // attempts sent again to another node (the previous node gave no response byte)
  noNode: number; // requests answered 502 by the balancer itself: no node gave a response
  brokenAfterResponse: number; // responses cut by a node dying after its status line (not retryable)
  perNode: number[]; // responses started, per node
};
export type Balancer = {
  url: string;
  port: number;
  stats: BalancerStats;
  inFlight: (node: number) => number; // requests sent to that node and not finished
  close: () => Promise<void>;
};
export function startBalancer(opts: { targets: { host?: string; port: number }[]; port?: number; host?: string; downMs?: number }): Promise<Balancer>;

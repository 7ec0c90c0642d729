// The deployment files agree with each other and with the server (docs/deploy.md): no Docker
// engine runs here (deploy/check-layout.mjs runs the image's files instead), so what can be
// read is checked: the compose file's nodes, the load balancer's upstreams, the Dockerfile's
// runtime stage, and the shutdown bounds they all assume.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  volumes?: string[];
  healthcheck?: unknown;
};
const compose = parse(readFileSync("compose.yaml", "utf8"), { merge: true }) as { services: Record<string, Service> };
const nginx = readFileSync("deploy/nginx.conf", "utf8");
const dockerfile = readFileSync("Dockerfile", "utf8").replace(/\\\n\s*/g, " ");
const runtime = dockerfile.slice(dockerfile.search(/^FROM \S+ AS runtime$/m));
const envOf = (stage: string) =>
  Object.fromEntries([...stage.matchAll(/^ENV (.+)$/gm)].flatMap((m) => [...m[1].matchAll(/(\w+)=(\S+)/g)].map((x) => [x[1], x[2]])));
const seconds = (v: string) => Number(/^(\d+)s$/.exec(v)?.[1] ?? NaN);

const gateways = Object.entries(compose.services).filter(([name]) => /^gateway-\d+$/.test(name));

describe("compose.yaml", () => {
  it("runs three gateway nodes built from this Dockerfile with one environment, on PostgreSQL and Redis once they are healthy", () => {
    expect(gateways.map(([n]) => n)).toEqual(["gateway-1", "gateway-2", "gateway-3"]);
    const [, first] = gateways[0];
    const shared = ({ NODE_ID, ...rest }: Record<string, string>) => (void NODE_ID, rest);
    for (const [name, g] of gateways) {
      expect(g.build).toBe(".");
      expect(shared(g.environment!)).toEqual(shared(first.environment!));
      // each node's own id, stable across the container's re-creation (docs/operations.md, "Node id")
      expect(g.environment!.NODE_ID).toBe(name);
      expect(g.depends_on).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
    }
    const env = first.environment!;
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/[^@]+@postgres:5432\//);
    expect(env.REDIS_URL).toBe("redis://redis:6379");
    // every node opens the others' sessions and sealed keys
    expect(env.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
    expect(env.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/);
    expect(compose.services.postgres.healthcheck).toBeDefined();
    expect(compose.services.redis.healthcheck).toBeDefined();
  });

  it("gives a node the time its shutdown may take before the engine kills it", () => {
    // lib/lifecycle.ts: the hard exit comes after drain delay + grace + 10 s
    for (const [, g] of gateways) {
      const drain = Number(g.environment!.SHUTDOWN_DRAIN_DELAY_MS) / 1000;
      const grace = Number(g.environment!.SHUTDOWN_GRACE_MS) / 1000;
      expect(seconds(g.stop_grace_period!)).toBeGreaterThanOrEqual(drain + grace + 10);
    }
  });

  it("puts nginx in front with deploy/nginx.conf, whose upstreams are exactly the gateway nodes on the image's port", () => {
    expect(compose.services.lb.volumes).toContain("./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro");
    const port = envOf(runtime).PORT;
    expect(port).toBe("3000");
    const upstreams = [...nginx.matchAll(/^\s*server (\S+?)(?::(\d+))?[ ;]/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(gateways.map(([name]) => `${name}:${port}`));
    // docs/operations.md, "The balancer's retry rule": no response byte, POSTs included; never
    // on a timeout or a 5xx (an answer was billed or refunded by its node)
    expect(nginx).toMatch(/^\s*proxy_next_upstream error non_idempotent;$/m);
    expect(nginx).toMatch(/proxy_buffering off;/);
    // a body can be resent to the next node only when nginx has read all of it
    expect(nginx).not.toMatch(/proxy_request_buffering off/);
    // a recreated replica's new address is looked up again
    expect(nginx).toMatch(/^resolver 127\.0\.0\.11 /m);
    expect([...nginx.matchAll(/^\s*server gateway-\d+:\S+ .*\bresolve;$/gm)]).toHaveLength(gateways.length);
  });
});

describe("Dockerfile", () => {
  it("runs the server as a non-root user with its data under the volume, checked on /readyz", () => {
    const env = envOf(runtime);
    expect(runtime).toMatch(/^USER gateway$/m);
    expect(runtime).toMatch(/useradd --system --uid \d+/);
    expect(runtime).toContain(`VOLUME ["${env.DATA_DIR}"]`);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/readyz/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/server.mjs"\]$/m);
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    // the runtime stage takes the traced run-time files only (scripts/image-files.mjs)
    expect(dockerfile).toMatch(/node scripts\/image-files\.mjs \/image/);
    expect([...runtime.matchAll(/^COPY (.+)$/gm)].map((m) => m[1])).toEqual(["--from=build --chown=gateway:gateway /image/ ./"]);
  });
});
